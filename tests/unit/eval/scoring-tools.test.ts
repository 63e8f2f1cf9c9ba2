import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseInstances } from '../../../src/eval/instances';
import { scorePrediction } from '../../../src/eval/score';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';
import { listeningSince, listeningSockets } from '../../support/listening';

/**
 * crew eval scores every prediction in one process: each scoring prepares the sandbox on a model-written
 * tree, which starts an egress proxy, and closes it when the tests have run (toolbox/sandbox-setup.ts, dispose).
 */
const root = await mkdtemp(join(tmpdir(), 'crew-scoring-tools-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe("eval's scoring", () => {
  it('closes the egress proxy it started once the tests have run', async () => {
    const repo = join(root, 'repo');
    await mkdir(join(repo, 'test'), { recursive: true });
    await writeFile(join(repo, 'test', 'a.test.js'), "import { test } from 'node:test';\ntest('adds', () => {});\n");
    await writeFile(join(repo, 'package.json'), '{ "type": "module" }\n');
    await git(['init', '-q', '-b', 'main'], { cwd: repo });
    await git(['add', '-A'], { cwd: repo });
    await git(['commit', '-qm', 'base'], { cwd: repo, env: FIXTURE_IDENTITY });
    const sha = (await git(['rev-parse', 'HEAD'], { cwd: repo })).trim();
    const bare = join(root, 'bare.git');
    await git(['clone', '-q', '--bare', repo, bare]);
    const [instance] = parseInstances(
      JSON.stringify({
        instance_id: 'o__r-1',
        repo: 'o/r',
        base_commit: sha,
        fix_commit: sha,
        test_files: ['test/a.test.js'],
        test_cmd: 'node --test',
        setup: ['true'],
        problem_statement: 'Fix it.',
        FAIL_TO_PASS: ['test/a.test.js::adds'],
        PASS_TO_PASS: [],
      }),
      'i.jsonl',
    );
    const warnings: string[] = [];
    const infos: string[] = [];
    const before = await listeningSockets();
    const score = await scorePrediction(bare, instance!, '', join(root, 'scoring'), {
      log: { info: (m) => void infos.push(m), warn: (m) => void warnings.push(m), checkpoint: () => undefined },
      allowUnsandboxed: false,
      commandTimeoutSeconds: 60,
      tempDir: join(root, 'temp'),
      unsandboxedOptIn: 'pass --allow-unsandboxed',
    });
    expect(score.kind, `${JSON.stringify(score)}\n${warnings.join('\n')}`).not.toBe('unscorable');
    // The scoring's sandbox had the proxy: the instance's setup runs on a model-written tree, reaching the allowlist through it.
    expect(infos.join('\n')).toMatch(/egress: allowlist/);
    expect(await listeningSince(before)).toEqual([]);
  }, 120_000);
});
