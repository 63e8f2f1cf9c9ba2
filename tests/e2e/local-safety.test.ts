import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { startFakeAnthropic, type FakeAnthropic, type Script, type ScriptedReply } from '../support/anthropic';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';
import { sharedWithSandbox } from '../support/sandbox/shared-dir';

/**
 * Local mode's safe defaults, played through the built `crew` (bin/crew.js → dist/cli) as a
 * separate process against a fixture repository and the offline Anthropic API. Each scenario
 * (tests/scenarios/local/*.yaml) gets its own repository; some run crew as an unprivileged
 * user (setpriv), the way a person runs it, to reach the user-namespace sandbox and the
 * no-sandbox path.
 */

const exec = promisify(execFile);
const BIN = join(PROJECT_ROOT, 'bin', 'crew.js');
const FIXTURE = join(PROJECT_ROOT, 'scenarios', 'fixtures', 'textkit');
const SCENARIOS = join(PROJECT_ROOT, 'tests', 'scenarios', 'local');
/** An unprivileged user to run crew as (nobody). */
const PERSON = 65534;

interface LocalScenario {
  description: string;
  files: Record<string, string>;
  changed_files?: Record<string, string>;
  model: string;
  worker_first?: ScriptedReply[];
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'crew-local-safety-'));
  // The unprivileged runs need to reach their repositories below it.
  await chmod(root, 0o755);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function scenario(name: string, marker: string): Promise<{ s: LocalScenario; script: Script }> {
  const fill = (text: string) => text.replaceAll('{{MARKER}}', marker);
  const s = YAML.parse(fill(await readFile(join(SCENARIOS, `${name}.yaml`), 'utf8'))) as LocalScenario;
  const script = YAML.parse(await readFile(join(SCENARIOS, s.model), 'utf8')) as Script;
  const worker = script.entries.find((e) => e.role === 'worker')!;
  worker.replies = [...(s.worker_first ?? []), ...worker.replies];
  return { s, script };
}

/** The scenario's repository: the textkit fixture and its files, committed; owned by `owner`. */
async function repository(name: string, files: Record<string, string>, owner = 0): Promise<string> {
  const dir = join(root, name, 'repo');
  await cp(FIXTURE, dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await commit(dir, 'start');
  if (owner) await exec('chown', ['-R', `${owner}:${owner}`, join(root, name)]);
  return dir;
}

async function commit(dir: string, message: string): Promise<void> {
  const git = (...args: string[]) => exec('git', ['-C', dir, '-c', 'user.name=maintainer', '-c', 'user.email=m@example.com', ...args]);
  if (!existsSync(join(dir, '.git'))) await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-qm', message);
}

interface Ran {
  code: number | null;
  out: string;
}

interface CrewOptions {
  cwd: string;
  fake?: FakeAnthropic;
  /** Run as this unprivileged user (with a home of its own). */
  as?: number;
  path?: string;
  /** Through a pseudo-terminal (`script`), typing this. */
  terminal?: string;
}

function crew(args: string[], o: CrewOptions): Promise<Ran> {
  const env: Record<string, string> = {
    PATH: o.path ?? process.env.PATH!,
    HOME: o.as ? join(o.cwd, '..', 'home') : (process.env.HOME ?? '/tmp'),
    CREW_TIME_SCALE: process.env.CREW_TIME_SCALE ?? '0.01',
  };
  if (o.fake) Object.assign(env, { ANTHROPIC_BASE_URL: o.fake.url, ANTHROPIC_API_KEY: 'sk-ant-test-local' });
  let argv = [process.execPath, BIN, ...args];
  if (o.terminal !== undefined) argv = ['script', '-qec', argv.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' '), '/dev/null'];
  if (o.as) argv = ['setpriv', `--reuid=${o.as}`, `--regid=${o.as}`, '--clear-groups', ...argv];
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: o.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    // Closed input, unless a terminal is typed into (`script` passes what it reads to crew's terminal).
    if (o.terminal !== undefined) child.stdin.write(o.terminal);
    else child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => {
      if (o.terminal !== undefined) child.stdin.destroy();
      resolve({ code, out: out.replace(/\r\n/g, '\n') });
    });
  });
}

async function branchFile(dir: string, branch: string, path: string): Promise<string | undefined> {
  // The repository may belong to the unprivileged user: git would refuse it to root (dubious ownership).
  return exec('git', ['-c', 'safe.directory=*', '-C', dir, 'show', `${branch}:${path}`]).then(
    (r) => r.stdout,
    () => undefined,
  );
}

/**
 * A folder for the marker a trap would write: writable by whoever crew runs as, and by default
 * never by the tool user of the root sandbox (`open`: by anyone, for setup that may run inside it, outside /tmp).
 */
async function markerIn(name: string, owner = 0, open = false): Promise<string> {
  // Setup inside the sandbox sees a /tmp of its own (#46): an open marker folder is one it can reach.
  const dir = open ? await sharedWithSandbox(name) : join(root, name, 'markers');
  await mkdir(dir, { recursive: true });
  if (owner) await chown(dir, owner, owner);
  await chmod(dir, open ? 0o1777 : 0o700);
  return join(dir, 'RAN');
}

/** How many times the scenario's setup command ran (each run leaves a file of its own next to the marker). */
async function setupRuns(marker: string): Promise<number> {
  const name = marker.split('/').pop()!;
  return (await readdir(join(marker, '..'))).filter((f) => f.startsWith(`${name}.`)).length;
}

async function home(name: string, owner: number): Promise<void> {
  await mkdir(join(root, name, 'home'), { recursive: true });
  await chown(join(root, name, 'home'), owner, owner);
}

describe("a repository's setup: commands on the person's machine", () => {
  it('with input closed: refused with exit 2, naming setup: in .github/crew.yml, showing the commands and the flag; nothing ran', async () => {
    const marker = await markerIn('setup-closed');
    const { s, script } = await scenario('setup-needs-consent', marker);
    const fake = await startFakeAnthropic({ script });
    try {
      const dir = await repository('setup-closed', s.files);
      const r = await crew(['run', 'Add a notes file', '--criteria', 'NOTES.md exists'], { cwd: dir, fake });
      expect(r.code, r.out).toBe(2);
      expect(r.out).toContain("crew: this repository's `setup:` in .github/crew.yml would run these commands on your machine, as you, with network:");
      expect(r.out).toContain(`    mktemp "${marker}.XXXXXX"`);
      expect(r.out).toContain('pass --allow-setup');
      expect(r.out).toContain('Nothing was run.');
      // Nothing ran: no setup command, no agent, no model request, no run recorded, no worktree.
      expect(await setupRuns(marker)).toBe(0);
      expect(fake.requests).toEqual([]);
      expect(await readdir(join(dir, '.crew', 'runs'))).toEqual([]);
      expect((await exec('git', ['-C', dir, 'branch', '--list', 'crew/*'])).stdout).toBe('');
      expect((await exec('git', ['-C', dir, 'worktree', 'list'])).stdout.trim().split('\n')).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });

  it('--allow-setup runs them; a yes at the terminal is remembered for the same commands; changed commands are asked about again', async () => {
    const marker = await markerIn('setup-allowed', 0, true);
    const { s, script } = await scenario('setup-needs-consent', marker);
    const fake = await startFakeAnthropic({ script });
    try {
      const dir = await repository('setup-allowed', s.files);
      const args = ['run', 'Add a notes file', '--criteria', 'NOTES.md exists'];
      const flagged = await crew([...args, '--allow-setup'], { cwd: dir, fake });
      expect(flagged.code, `${flagged.out}\n${await readFile(join(dir, '.crew', 'runs', '1', 'crew.log'), 'utf8').catch(() => '')}`).toBe(0);
      expect(flagged.out).toContain('setup: running `setup:` in .github/crew.yml as you, with network (--allow-setup):');
      // Once per job: the worker's (on the base commit, as the person) and the critic's (a model-written tree, in the sandbox).
      expect(await setupRuns(marker)).toBeGreaterThanOrEqual(2);
      expect(existsSync(join(dir, '.crew', 'setup-approvals.json'))).toBe(false);

      // At a terminal: the commands, the question, a yes; then the run.
      let before = await setupRuns(marker);
      fake.setScript(script);
      const asked = await crew(args, { cwd: dir, fake, terminal: 'y\n' });
      expect(asked.out).toContain("This repository's `setup:` in .github/crew.yml runs these commands on your machine, as you, with network, before each job:");
      expect(asked.out).toContain('Run them? crew remembers a yes for these exact commands. [y/N]');
      expect(asked.code, asked.out).toBe(0);
      expect(await setupRuns(marker)).toBeGreaterThan(before);

      // The same commands again, with input closed: remembered, not asked.
      before = await setupRuns(marker);
      fake.setScript(script);
      const again = await crew(args, { cwd: dir, fake });
      expect(again.code, again.out).toBe(0);
      expect(again.out).toContain('setup: running `setup:` in .github/crew.yml, as you allowed before (same commands):');
      expect(again.out).not.toContain('[y/N]');
      expect(await setupRuns(marker)).toBeGreaterThan(before);

      // Changed commands: asked again, so with input closed, refused, and nothing ran.
      before = await setupRuns(marker);
      for (const [path, text] of Object.entries(s.changed_files!)) await writeFile(join(dir, path), text);
      await commit(dir, 'more setup');
      const requests = fake.requests.length;
      const changed = await crew(args, { cwd: dir, fake });
      expect(changed.code, changed.out).toBe(2);
      expect(changed.out).toContain('    echo again');
      expect(await setupRuns(marker)).toBe(before);
      expect(fake.requests.length).toBe(requests);

      // A no at the terminal: refused, nothing ran.
      const no = await crew(args, { cwd: dir, fake, terminal: 'n\n' });
      expect(no.code, no.out).toBe(2);
      expect(no.out).toContain('the setup commands were not allowed');
      expect(await setupRuns(marker)).toBe(before);
    } finally {
      await fake.close();
    }
  });
});

describe("a tool that rewrites git metadata cannot make crew's own git run a program", () => {
  for (const [who, as] of [
    ['as root (the tool-user sandbox)', 0],
    ['as an unprivileged user (the user-namespace sandbox)', PERSON],
  ] as const) {
    it(`${who}: the planted hooks, fsmonitor and drivers never run; the work lands on crew's branches`, async () => {
      const name = `tampered-${as}`;
      const marker = await markerIn(name, as);
      const { s, script } = await scenario('tampered-git', marker);
      const fake = await startFakeAnthropic({ script });
      try {
        const dir = await repository(name, s.files, as);
        if (as) await home(name, as);
        const r = await crew(['run', 'Add a notes file', '--criteria', 'NOTES.md exists'], { cwd: dir, fake, as });
        expect(r.out, r.out).toMatch(
          as ? /sandbox: on \(the default\), sandboxed with user namespaces/ : /sandbox: on \(the default\), sandboxed: commands run as user crew-tool/,
        );
        // The tool did rewrite the pointer; the repository's own config, hooks and worktree folder stayed out of its reach.
        const seen = JSON.stringify(fake.requests.filter((q) => q.role === 'worker').map((q) => q.body.messages));
        const planted = /pointer: rewritten to gitdir: (\/tmp\/crew-evil-[A-Za-z0-9]+)\/g/.exec(seen)?.[1];
        expect(planted, r.out).toBeDefined();
        await rm(planted!, { recursive: true, force: true });
        expect(seen).toContain('repository config: out of reach');
        expect(seen).toContain('repository hooks: out of reach');
        expect(seen).toContain('worktree folder: out of reach');
        expect(seen).toMatch(/\.git/);
        expect(existsSync(marker), `a planted program ran: ${existsSync(marker) ? await readFile(marker, 'utf8') : ''}`).toBe(false);
        expect(r.code, r.out).toBe(0);
        expect(await branchFile(dir, 'crew/local-1/result', 'NOTES.md'), r.out).toBe('# Notes\n');
        // .gitattributes is a protected path by default: crew undid the tool's change instead of committing it.
        expect(await branchFile(dir, 'crew/local-1/result', '.gitattributes')).toBeUndefined();
        expect((await exec('git', ['-c', 'safe.directory=*', '-C', dir, 'config', '--get', 'core.fsmonitor']).catch(() => ({ stdout: '' }))).stdout).toBe('');
      } finally {
        await fake.close();
      }
    });
  }
});

describe('the sandbox by default, and where none can start', () => {
  /** A PATH with everything in /usr/bin but `unshare` and `sudo`: as an unprivileged user, no sandbox can start. */
  async function pathWithoutSandbox(): Promise<string> {
    const bin = join(root, 'no-sandbox-bin');
    await mkdir(bin, { recursive: true });
    for (const f of await readdir('/usr/bin')) if (f !== 'unshare' && f !== 'sudo') await symlink(join('/usr/bin', f), join(bin, f)).catch(() => undefined);
    return bin;
  }

  it('says so at the start and refuses run_command with how to opt in; --allow-unsandboxed turns it off, said as OFF; crew.yml cannot', async () => {
    const name = 'no-sandbox';
    const { s, script } = await scenario('commands-refused', await markerIn(name, PERSON));
    const fake = await startFakeAnthropic({ script });
    try {
      const dir = await repository(name, { ...s.files, '.github/crew.yml': 'allow_unsandboxed: true\n' }, PERSON);
      await home(name, PERSON);
      const path = await pathWithoutSandbox();
      const args = ['run', 'Add a notes file', '--criteria', 'NOTES.md exists'];
      const refused = await crew(args, { cwd: dir, fake, as: PERSON, path });
      expect(refused.out).toMatch(
        /sandbox: none can start here \(crew is not root and has no passwordless sudo.*user namespaces are not available here.*\), so agents' commands \(run_command\) are refused\./,
      );
      expect(refused.out).toContain('To let commands run without a sandbox, as you and with network, run crew with --allow-unsandboxed.');
      expect(refused.out).toContain(
        'note: allow_unsandboxed in .github/crew.yml is not used on your machine: only you can turn the sandbox off, with crew run … --allow-unsandboxed.',
      );
      expect(refused.out).toContain(
        'run_command is refused; run crew again with --allow-unsandboxed (commands then run as you, with network) to run commands without one.',
      );
      const told = JSON.stringify(fake.requests.filter((q) => q.role === 'worker').map((q) => q.body.messages));
      expect(told).toContain('run_command is not available in this run: run_command was refused: no sandbox');
      expect(told).not.toMatch(/exit code 0\\ncommand-ran/);
      // The critic cannot run the command criterion either: the run waits for the person, saying why (exit 1).
      expect(refused.out).toContain('could not be evaluated: run_command was refused: no sandbox');
      expect(refused.code, refused.out).toBe(1);

      fake.setScript(script);
      const allowed = await crew([...args, '--allow-unsandboxed'], { cwd: dir, fake, as: PERSON, path });
      expect(allowed.out).toMatch(
        /sandbox: OFF \(--allow-unsandboxed; commands ran without a sandbox \(.*\)\): NOT sandboxed: commands run as crew’s own user/,
      );
      const ran = JSON.stringify(fake.requests.filter((q) => q.role === 'worker').map((q) => q.body.messages));
      expect(ran).toMatch(/exit code 0\\ncommand-ran/);
      expect(allowed.code, allowed.out).toBe(0);
    } finally {
      await fake.close();
    }
  });
});
