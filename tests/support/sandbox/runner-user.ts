import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Like GitHub's hosted runners: crew runs as this non-root user, which has passwordless sudo. */
export const RUNNER_USER = 'crew-runner';

async function has(cmd: string, args: string[]): Promise<boolean> {
  return exec(cmd, args).then(
    () => true,
    () => false,
  );
}

/** The test installs what it needs: sudo (Debian's package) and the runner user in sudoers. It runs as root here. */
export async function ensureRunnerUser(): Promise<{ uid: number; gid: number }> {
  if (!(await has('sudo', ['--version']))) {
    await exec('apt-get', ['install', '-y', '-qq', 'sudo'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).catch(async () => {
      await exec('apt-get', ['update', '-qq']);
      await exec('apt-get', ['install', '-y', '-qq', 'sudo'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    });
  }
  if (!(await has('id', [RUNNER_USER])))
    await exec('useradd', ['--create-home', '--shell', '/bin/bash', RUNNER_USER]).catch(async (e) => {
      if (!(await has('id', [RUNNER_USER]))) throw e;
    });
  await writeFile(`/etc/sudoers.d/${RUNNER_USER}`, `${RUNNER_USER} ALL=(ALL) NOPASSWD:ALL\n`, { mode: 0o440 });
  const uid = Number((await exec('id', ['-u', RUNNER_USER])).stdout);
  const gid = Number((await exec('id', ['-g', RUNNER_USER])).stdout);
  return { uid, gid };
}
