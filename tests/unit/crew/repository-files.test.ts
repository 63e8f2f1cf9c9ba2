import { describe, expect, it } from 'vitest';
import { repositoryFileAt } from '../../../src/adapters/github/repository-files';
import { createClient } from '../../../src/adapters/github/octokit';
import { fakeGitHubForTest } from '../../support/github/for-test';

const quiet = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

describe('a file of the repository over the contents API, for the jobs that check nothing out (#31 §4)', () => {
  it('reads a file at a commit (not the branch tip), says undefined where there is none, and refuses one the API sends without content', async () => {
    const { gh } = await fakeGitHubForTest({ prefix: 'repository-files-', files: { '.github/crew.yml': 'max_tasks: 3\n' } });
    const token = gh.actionsToken({ contents: 'read' });
    // createClient reads GITHUB_API_URL when it is called, as in a job.
    process.env.GITHUB_API_URL = gh.url;
    const client = createClient(token, quiet);
    const repo = { owner: gh.owner, repo: gh.repoName };
    const first = (await gh.repo.branchSha('main'))!;
    await gh.repo.writeCommit({ branch: 'main', files: { '.github/crew.yml': 'max_tasks: 5\n', 'big.txt': 'x'.repeat(1024 * 1024 + 1) }, message: 'later' });
    expect(await repositoryFileAt(client, repo, '.github/crew.yml', first)).toBe('max_tasks: 3\n');
    expect(await repositoryFileAt(client, repo, '.github/crew.yml', 'main')).toBe('max_tasks: 5\n');
    expect(await repositoryFileAt(client, repo, '.github/nothing.yml', first)).toBeUndefined();
    expect(await repositoryFileAt(client, repo, '.github', first)).toBeUndefined();
    await expect(repositoryFileAt(client, repo, 'big.txt', 'main')).rejects.toThrow(/big\.txt at main is 1048577 bytes, too large for GitHub's contents API/);
  });
});
