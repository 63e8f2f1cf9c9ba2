import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { parseInstances } from '../../../src/eval/instances';
import { playSingle } from '../../../src/eval/play-single';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';
import { scriptedSubmissions } from '../crew/scripted-model';
import { listeningSince, listeningSockets } from '../../support/listening';
import { startListener } from '../../support/mcp/http-server';

/**
 * eval's single way builds its agent's run_command options where the worker and the critic do
 * (toolbox/command-options.ts, #53): with `network.tools: allowlist` in the repository's crew.yml, the
 * sandbox's commands reach the allowed hosts, and the agent is told so (it was told "none").
 */

const root = await mkdtemp(join(tmpdir(), 'crew-single-way-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const REPORT = { status: 'success', quality: 'GREEN', completeness: 100, summary: 'Nothing to change.', details: 'Looked; nothing to do.' };

describe("eval's single way", () => {
  it("tells its agent the network network.tools gives its commands, as crew's worker is told; the play closes the proxy and the service bridge it started", async () => {
    const service = await startListener();
    onTestFinished(() => service.close());
    const before = await listeningSockets();
    const dir = join(root, 'repo');
    await mkdir(join(dir, '.github'), { recursive: true });
    await writeFile(join(dir, '.github', 'crew.yml'), `network:\n  tools: allowlist\n  services: ["127.0.0.1:${service.port}"]\n`);
    await writeFile(join(dir, 'README.md'), 'hello\n');
    await git(['init', '-q', '-b', 'main'], { cwd: dir });
    await git(['add', '-A'], { cwd: dir });
    await git(['commit', '-qm', 'base'], { cwd: dir, env: FIXTURE_IDENTITY });
    const sha = (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    const [instance] = parseInstances(
      JSON.stringify({ instance_id: 'o__r-1', repo: 'o/r', base_commit: sha, problem_statement: 'Fix it.', FAIL_TO_PASS: ['t'], PASS_TO_PASS: [] }),
      'i.jsonl',
    );
    const { model: scripted, requests } = scriptedSubmissions('report_result', [REPORT]);
    let during: string[] = [];
    const model: typeof scripted = {
      ...scripted,
      complete: async (req) => {
        during = await listeningSince(before);
        return scripted.complete(req);
      },
    };
    const warnings: string[] = [];
    const played = await playSingle(
      {
        instance: instance!,
        dir,
        scratch: join(root, 'scratch'),
        cli: '',
        allowUnsandboxed: false,
        budget: { tokens: 100_000, costUsd: 1, ms: 120_000 },
        readRun: async () => undefined,
      },
      async () => model,
      { info: () => undefined, warn: (m) => void warnings.push(m), checkpoint: () => undefined },
    );
    expect(played, warnings.join('\n')).toMatchObject({ kind: 'played' });
    const runCommand = requests[0]!.tools.find((t) => t.name === 'run_command')!;
    expect(runCommand.description).toContain("Network: only the repository's allowed hosts, through the proxy");
    // crew eval plays many instances in one process: what a play started is closed when it ends.
    expect(during.filter((s) => /\/crew-egress-[^/]+\/proxy\.sock$/.test(s))).toHaveLength(1);
    expect(during.filter((s) => /\/crew-service-[^/]+\/bridge\.sock$/.test(s))).toHaveLength(1);
    expect(await listeningSince(before)).toEqual([]);
  }, 120_000);
});
