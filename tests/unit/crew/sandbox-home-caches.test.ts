import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Log, WorkingCopy } from '../../../src/ports';
import { prepareSandbox } from '../../../src/sandbox/command-runner';
import { DEFAULT_NETWORK } from '../../../src/toolbox/egress';
import { prepareTools } from '../../../src/toolbox/sandbox-setup';
import { HOME_CACHES } from '../../../src/domain/setup-caches';
import { git } from '../../support/git-cli';

/**
 * crew's sandboxed setup on a model-written tree (#51): it starts from a copy of the dependency caches the
 * repository's setup steps restored in the runner's home, and what it writes there never reaches the runner's own
 * folders, which the cache saves at the job's end.
 */
describe("setup on a model-written tree and the runner's restored caches", () => {
  let dir: string;
  let runnerHome: string;
  let workspace: string;
  const saved = { HOME: process.env.HOME, RUNNER_TEMP: process.env.RUNNER_TEMP, GITHUB_ACTIONS: process.env.GITHUB_ACTIONS };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'home-caches-'));
    await chmod(dir, 0o711);
    runnerHome = join(dir, 'runner-home');
    await mkdir(join(runnerHome, '.npm', '_fixture'), { recursive: true });
    await writeFile(join(runnerHome, '.npm', '_fixture', 'dep-00.tgz'), 'dep-00\n');
    await mkdir(join(runnerHome, '.ssh'), { recursive: true });
    await writeFile(join(runnerHome, '.ssh', 'id_ed25519'), 'a key that is no cache\n');
    workspace = join(dir, 'ws');
    await mkdir(workspace);
    await git(['init', '--quiet', workspace]);
    // A job's own temporary folder, so the sandbox makes its commands' home afresh.
    const temp = join(dir, 'runner-temp');
    await mkdir(temp, { mode: 0o711 });
    process.env.RUNNER_TEMP = temp;
    process.env.HOME = runnerHome;
    // An Actions job, where the setup steps restored the caches (locally crew copies nothing of the person's home).
    process.env.GITHUB_ACTIONS = 'true';
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    await rm(dir, { recursive: true, force: true });
  });

  it("installs from a copy of the runner's ~/.npm; its writes stay in the copy; nothing else of the runner's home is copied", async () => {
    const infos: string[] = [];
    const log: Log = { info: (m) => void infos.push(m), warn: () => undefined, checkpoint: () => undefined };
    const setup = [
      'cat "$HOME/.npm/_fixture/dep-00.tgz" > seen.txt',
      'echo poison > "$HOME/.npm/_fixture/poison" && echo changed > "$HOME/.npm/_fixture/dep-00.tgz"',
      'ls -a "$HOME" > home.txt',
    ];
    const r = await prepareTools(
      { repo: { dir: workspace } as WorkingCopy, log },
      { setup, command_timeout_seconds: 30, allow_unsandboxed: false, network: DEFAULT_NETWORK },
      { trusted: false },
      [prepareSandbox],
    );
    expect(r.setupFailure).toBeNull();
    expect(r.runner?.sandboxed).toBe(true);
    expect(await readFile(join(workspace, 'seen.txt'), 'utf8')).toBe('dep-00\n');
    // The runner's own folder, which actions/setup-node's post step saves, is as the setup steps restored it.
    expect(existsSync(join(runnerHome, '.npm', '_fixture', 'poison'))).toBe(false);
    expect(await readFile(join(runnerHome, '.npm', '_fixture', 'dep-00.tgz'), 'utf8')).toBe('dep-00\n');
    expect((await readFile(join(workspace, 'home.txt'), 'utf8')).split('\n')).not.toContain('.ssh');
    expect(infos.join('\n')).toMatch(/The sandbox's home starts with a copy of the runner's ~\/\.npm \(restored by the setup steps; [0-9.]+ s\)/);
    await r.dispose();
  }, 60_000);
});

describe('docs/SECURITY.md on the copied caches', () => {
  it("names every folder of the copy list (HOME_CACHES), as `~/<folder>`, in the row on the setup steps' dependency caches", async () => {
    const doc = await readFile(join(__dirname, '..', '..', '..', 'docs', 'SECURITY.md'), 'utf8');
    const row = doc.split('\n').find((l) => l.startsWith("| The setup steps' dependency caches and model-written setup"));
    expect(row).toBeDefined();
    for (const folder of HOME_CACHES) expect(row, folder).toContain(`\`~/${folder}\``);
  });
});
