import { GitHubForge, type GitHubForgeOptions } from '../../../src/adapters/github/forge';
import { createClient, type ClientOptions } from '../../../src/adapters/github/octokit';
import type { Log } from '../../../src/ports';
import type { FakeGitHub } from './fake-github';

/**
 * crew's real GitHubForge over a real Octokit client, pointed at a fake GitHub, as a job in run 1
 * of `crew.yml` would build it with the workflow's token. Options override any of that.
 */
export function forgeOn(gh: FakeGitHub, token: string, log: Log, opts: Partial<GitHubForgeOptions> = {}, client: ClientOptions = {}): GitHubForge {
  return new GitHubForge(
    createClient(token, log, client),
    { owner: gh.owner, repo: gh.repoName, serverUrl: gh.url, runId: '1', workflowFile: 'crew.yml', tokenKind: 'actions', ...opts },
    log,
  );
}
