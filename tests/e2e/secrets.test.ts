import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../support/git-cli';
import { sharedWithSandbox, withPath } from '../support/sandbox/shared-dir';
import { crewComments, expectFaithful, play } from './helpers';

const KEY = 'sk-ant-lifecycle-canary-0123456789abcdef';
/** Where the scenario's postinstall script writes what it found: the scenario says /tmp, each run gets a folder the sandbox can reach. */
const SCENARIO_FOUND = '/tmp/crew-lifecycle-canary';

describe('model-written code never meets a secret', () => {
  it('a postinstall script a worker added runs under `setup: [npm ci]` only inside the sandbox: it finds no secret, posts nothing, and the run goes on', async () => {
    const FOUND = await sharedWithSandbox('lifecycle-canary');
    const seen: string[] = [];
    let tokens: string[] = [];
    const r = await play('lifecycle-canary', {
      edit: (s) => withPath(s, SCENARIO_FOUND, FOUND),
      hooks: {
        beforeClose: async ({ gh, anthropic, runner }) => {
          tokens = gh.issuedTokens;
          seen.push(...anthropic.requests.map((q) => JSON.stringify(q.body)));
          for (const run of runner.runs) for (const job of run.jobs) seen.push(...job.rawLog);
          for (const { ref } of await gh.repo.listRefs('refs/heads/')) {
            seen.push(await git(['log', '--format=%B', ref], { cwd: gh.repoDir }));
            for (const f of await gh.repo.listFiles(ref)) seen.push((await gh.repo.readFile(ref, f)) ?? '');
          }
        },
      },
    });
    expectFaithful(r);
    // The script really ran: in t2's job and in the critic's job, each time as the tool user, seeing none of crew's processes.
    const reports = await Promise.all(
      (await readdir(FOUND)).map(
        async (f) =>
          JSON.parse(await readFile(join(FOUND, f), 'utf8')) as { user: string; pids: number; found: Record<string, string>; tokenInConfig: boolean },
      ),
    );
    expect(reports.length).toBeGreaterThanOrEqual(2);
    for (const report of reports) {
      expect(report.user).toBe('crew-tool');
      expect(report.found).toEqual({});
      expect(report.tokenInConfig).toBe(false);
    }
    expect(tokens.length).toBeGreaterThan(0);
    // No secret anywhere: comments, the PR, every request the model saw, every job log, every branch's files and messages.
    const everything = [
      ...seen,
      ...r.issue.comments.map((c) => c.body),
      ...r.pulls.flatMap((p) => [p.title, p.body ?? '', ...p.comments.map((c) => c.body)]),
    ].join('\n');
    for (const secret of [KEY, ...tokens]) expect(everything.includes(secret), secret.slice(0, 8)).toBe(false);
    // Nobody but crew commented; the run went on to its pull request.
    expect(r.issue.comments.every((c) => c.author === 'maintainer' || c.author === 'github-actions[bot]')).toBe(true);
    expect(crewComments(r).some((c) => c.body.includes('found:'))).toBe(false);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files.sort()).toEqual(['package.json', 'scripts/collect.cjs', 'src/index.js']);
    // The new lifecycle script is listed for a person to look at before merging.
    expect(r.pulls[0]!.body).toContain(
      '- [ ] **lifecycle-script-changed** in `package.json`: package.json:8 adds the `postinstall` script `node scripts/collect.cjs`',
    );
    // The setup of the model-written trees said where it ran.
    const logs = seen.join('\n');
    expect(logs).toContain('setup (on a model-written tree, inside the sandbox, through the egress allowlist): npm ci');
    expect(logs).toContain('setup (on the base commit, outside the sandbox): npm ci');
  });
});
