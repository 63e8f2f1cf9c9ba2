import { existsSync, realpathSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../scenario/run-scenario';
import { COVERED, under } from '../../../src/sandbox/private-mounts';

/**
 * A folder both a sandboxed command and the test reach, for a scenario's script to leave what it saw
 * (or a marker that it ran). Every sandbox covers /tmp, /var/tmp, /run and /dev/shm with a tmpfs of its
 * own (#46), so such a folder cannot be there: it is made in the project's ignored `.scenario-out/`,
 * writable by everyone; for a clone inside one of those places, in /opt (where the sandbox tests make
 * their tool caches too). Each folder above it must let every user pass, or the tool user cannot reach it.
 */
export async function sharedWithSandbox(name: string): Promise<string> {
  const root = realpathSync(PROJECT_ROOT);
  const covered = COVERED.some((c) => existsSync(c) && under(root, realpathSync(c)));
  const parent = covered ? join('/opt', 'crew-test-shared') : join(PROJECT_ROOT, '.scenario-out', 'shared');
  await mkdir(parent, { recursive: true });
  await chmod(parent, 0o755);
  for (let dir = dirname(parent); dir !== dirname(dir); dir = dirname(dir))
    if (((await stat(dir)).mode & 0o001) === 0) throw new Error(`${dir} does not let other users pass: the sandbox's tool user cannot reach ${parent}`);
  const dir = await mkdtemp(join(parent, `${name}-`));
  await chmod(dir, 0o1777);
  return dir;
}

/** The scenario with every `from` in its text (a scripted command's path, say) replaced by `to`. */
export function withPath<T extends object>(scenario: T, from: string, to: string): void {
  Object.assign(scenario, JSON.parse(JSON.stringify(scenario).replaceAll(from, to)));
}
