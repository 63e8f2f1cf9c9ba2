import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PathJail } from '../../../src/agents/path-jail';
import { workspaceTools } from '../../../src/agents/workspace-tools';
import { prepareSandbox } from '../../../src/sandbox/command-runner';

/** crew runs as root here, as on GitHub's runners (sudo); the sandbox's tool user runs the commands. */
describe('files crew writes can be changed by the sandboxed commands', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'crew-tool-access-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('write_file opens new files and folders to the tool user, so run_command can edit what write_file made', async () => {
    const ws = await mkdtemp(join(root, 'ws-'));
    const prepared = await prepareSandbox(ws, join(root, 'tmp'));
    const write = workspaceTools(new PathJail(ws, []), () => undefined).find((t) => t.spec.name === 'write_file')!;
    await write.run({ path: 'src/deep/notes.txt', content: 'one\n' });
    expect((await stat(join(ws, 'src', 'deep', 'notes.txt'))).mode & 0o777).toBe(0o666);
    expect((await stat(join(ws, 'src', 'deep'))).mode & 0o777).toBe(0o777);
    if (!('runner' in prepared)) throw new Error(`the sandbox should start here (crew runs as root): ${prepared.reason}`);
    const r = await prepared.runner.run('echo two >> src/deep/notes.txt && touch src/deep/more.txt && id -un', {
      cwd: ws,
      timeoutMs: 20_000,
      maxOutputBytes: 1000,
    });
    expect(r.output.trim()).toBe('crew-tool');
    expect(r.exitCode).toBe(0);
  });
});
