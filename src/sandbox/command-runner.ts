import { spawn, execFile, type ChildProcessWithoutNullStreams, type ExecFileOptionsWithStringEncoding } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { promisify } from 'node:util';
import { keepEnds, OutputKeeper } from '../domain/kept-output';
import { PROXY_PORT } from '../domain/sandbox-reach';
import { FORWARDER, proxyEnv } from './egress/route';
import {
  LOCKED_MOUNT,
  lockedNote,
  namedSockets,
  privateMountArgs,
  readOnlyPairs,
  real,
  SANDBOX_PROXY_SOCKET,
  sandboxServiceSocket,
  under,
} from './private-mounts';
import { readOnlyPathFolders } from './path-folders';
import type { ServiceRoute } from './services';
import { copyHomeCaches, type HomeCaches } from './home-caches';
import { ownEnv, ownGit, ownPath } from './own-programs';
import { runningCommands } from './running-commands';

const execP = promisify(execFile);
/** Every program the sandbox starts as crew itself (unshare, sudo, useradd, chown) is found in the folders ownPath trusts. */
const exec = (cmd: string, args: string[], opts: Omit<ExecFileOptionsWithStringEncoding, 'encoding'> = {}) =>
  execP(cmd, args, { env: ownEnv(), ...opts, encoding: 'utf8' });

export interface CommandResult {
  exitCode: number;
  output: string;
  timedOut: boolean;
  truncated: boolean;
  /** The whole output's size, before its middle was cut (runners that stream it say). */
  size?: { bytes: number; lines: number };
}

/** Runs an agent's shell command. Implementations differ in how strongly they fence it in. */
export interface CommandRunner {
  /** One line for people: what this runner protects and what it does not. */
  readonly description: string;
  readonly sandboxed: boolean;
  /** Set when commands can ask for `network: 'allowlist'`. */
  readonly egress?: EgressRoute;
  run(command: string, opts: RunOptions): Promise<CommandResult>;
  /**
   * Starts a long-lived program the same way, fenced in the same way, with its stdin, stdout and
   * stderr as pipes (a stdio MCP server, #36). The caller stops it (`stopProgram`); crew stopping kills it too.
   */
  start?(command: string, opts: StartOptions): StartedProgram;
  /**
   * A home of its own for programs `start` starts, made now, empty but for the tool user's git config:
   * no command that ran before could have planted a file there (an `.npmrc`, an npx cache entry) for a
   * program that starts with secrets. `dispose` removes it once the programs have stopped. The same
   * gives a run that the commands before it must not reach (the base's tests, eval's scoring, #46) a
   * home and temporary folder of its own; `fill` writes into the new folder (a checkout) before it is
   * handed to the user the commands run as.
   */
  programHome?(fill?: (dir: string) => Promise<void>): Promise<ProgramHome>;
}

export type StartOptions = Omit<RunOptions, 'timeoutMs' | 'maxOutputBytes'> & {
  /** The program's HOME (programHome); the commands' shared home when unset. */
  home?: string;
};

export interface ProgramHome {
  dir: string;
  /** A folder of its own inside it, for TMPDIR. */
  tmp: string;
  dispose(): Promise<void>;
}

/** The variables that give a command a home of its own and its temporary folder. */
export function homeEnv(home: ProgramHome): Record<string, string> {
  return { HOME: home.dir, TMPDIR: home.tmp };
}

/** The tool user's git config, in its home and in every program home. */
const TOOL_GITCONFIG = '[safe]\n\tdirectory = *\n[user]\n\tname = crew tool\n\temail = crew-tool@localhost\n';

/**
 * A fresh home under `parent`, which is made searchable but not listable (0711): the tool user can
 * reach a home whose name it is told, never find one. `handOver` gives the new folder to the user
 * that will run the programs.
 */
async function freshHome(
  parent: string,
  handOver: (dir: string) => Promise<unknown>,
  remove: (dir: string) => Promise<unknown>,
  fill?: (dir: string) => Promise<void>,
): Promise<ProgramHome> {
  await mkdir(parent, { recursive: true });
  await chmod(parent, 0o711);
  const dir = await mkdtemp(join(parent, 'home-'));
  try {
    await writeFile(join(dir, '.gitconfig'), TOOL_GITCONFIG);
    await mkdir(join(dir, 'tmp'), { mode: 0o700 });
    await fill?.(dir);
    await handOver(dir);
  } catch (e) {
    await remove(dir).catch(() => undefined);
    throw e;
  }
  return { dir, tmp: join(dir, 'tmp'), dispose: async () => void (await remove(dir).catch(() => undefined)) };
}

/** A long-lived program `start` started: its pipes, and how to stop it with everything it started. */
export interface StartedProgram {
  child: ChildProcessWithoutNullStreams;
  stop(): void;
}

/**
 * Starts a wrapped program with pipes, in its own process group, killed with crew's other commands.
 * Through sudo (crew not root, as on GitHub's runners) the group is root's: crew cannot signal it
 * itself, so stopping it asks sudo to.
 */
function startProcess(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; viaSudo?: boolean; input?: string }): StartedProgram {
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  if (child.pid) runningCommands.add(child.pid);
  if (opts.input !== undefined) {
    // A program whose sandbox failed before it read its environment ends, and says so: its exit is what is reported.
    child.stdin.on('error', () => undefined);
    child.stdin.write(opts.input);
  }
  child.on('close', () => child.pid && runningCommands.delete(child.pid));
  child.on('error', () => child.pid && runningCommands.delete(child.pid));
  const stop = () => {
    // A stdio server ends when its input does; the kill is for one that does not.
    child.stdin.end();
    if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
    if (opts.viaSudo) {
      execFile('sudo', ['-n', 'kill', '-KILL', '--', `-${child.pid}`], { env: ownEnv() }, () => undefined);
      return;
    }
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };
  return { child, stop };
}

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  maxOutputBytes: number;
  /**
   * `allowlist`: the command reaches the hosts crew's egress proxy allows, and nothing else (setup on a
   * model-written tree: `npm ci` must download; the agents' commands with `network.tools: allowlist`).
   * Only a runner set up with an egress route can; the rest of the sandbox stays the same. `open`: the
   * machine's network, unfiltered (only where the allowlist cannot be set up and `network.fallback: open`
   * says so). Default: none.
   */
  network?: 'none' | 'allowlist' | 'open';
  /** Variables crew adds to the allow-listed environment (the test report hooks' routes, sandbox/test-reports). Never a secret. */
  env?: Record<string, string>;
  /** Folders crew made for this command outside the sandbox's own (the test report hooks and folder): kept in sight under its private /tmp (#46). */
  see?: string[];
}

/** How a sandbox reaches crew's egress proxy: its Unix socket (src/sandbox/egress/proxy.ts). */
export interface EgressRoute {
  socket: string;
}

/**
 * What the repository's setup steps hand to the sandbox's commands, only as `.github/crew.yml` names it
 * (#51): the variables of `sandbox_env` (their values from crew's environment, checked: domain/sandbox-reach.ts,
 * toolbox/sandbox-setup.ts) and the services of `network.services`, forwarded into the namespace.
 */
export interface SandboxReach {
  env?: Record<string, string>;
  services?: readonly ServiceRoute[];
  /** The dependency caches the setup steps restored, copied into the commands' home when the sandbox makes it (home-caches.ts). */
  caches?: HomeCaches;
}

/** Why a runner cannot give a command the allowlist: the caller must not ask it to. */
export class NoEgressRoute extends Error {}

export const TOOL_USER = 'crew-tool';

/** The environment tools see: an allow-list, so no token, key or INPUT_* value ever reaches them. */
export function toolEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: 'true',
    TMPDIR: '/tmp',
  };
}

/** Keeps the head and tail of long output: the command line and the error at the end both matter. */
export function capOutput(text: string, max: number): { text: string; truncated: boolean } {
  const kept = keepEnds(text, max);
  return { text: kept.text, truncated: kept.cut !== undefined };
}

/** The route a command gets: the runner's, when the command asks for the allowlist (never silently none). */
function egressRoute(egress: EgressRoute | undefined, opts: Pick<RunOptions, 'network'>): EgressRoute | undefined {
  if (opts.network !== 'allowlist') return undefined;
  if (!egress) throw new NoEgressRoute('this sandbox has no route to the egress proxy, so a command cannot have the allowlist');
  return egress;
}

/** The services a command is routed to: none with the machine's own network (`open`), where they are reachable as they are. */
function servicesOf(reach: SandboxReach, network: RunOptions['network']): readonly ServiceRoute[] {
  return network === 'open' ? [] : (reach.services ?? []);
}

/**
 * The forwarder in front of the command, run by crew's own node as the namespace's first process; it finds the proxy
 * and the services' bridges where privateMountArgs put them.
 */
function forwarderArgs(route: EgressRoute | undefined, services: readonly ServiceRoute[]): string[] {
  const routes = [
    ...(route ? [['127.0.0.1', String(PROXY_PORT), SANDBOX_PROXY_SOCKET, '1']] : []),
    ...services.map((s, i) => [s.address.host, String(s.address.port), sandboxServiceSocket(i), '0']),
  ];
  return routes.length ? [process.execPath, '-e', FORWARDER, '--', String(routes.length), ...routes.flat()] : [];
}

/**
 * What a sandbox keeps in sight under its private /tmp and /run, and what it covers (#46): `keep`, the
 * workspace and crew's temp folder (the commands' home, the test report hooks, a server's reviewed copy);
 * the proxy's socket (reached only through the route) and the folder of the programs' homes are covered
 * (no command of the agent's can plant a file there, even knowing a home's name).
 */
export interface SandboxPlaces {
  keep: string[];
  /** The proxy's socket, and the sockets the person's environment names (namedSockets). */
  sockets: string[];
  programHomes: string;
}

/** The private mounts of one command or program: its cwd and home kept too; a program does not see the commands' home, a command not the programs'. */
function placesArgs(
  places: SandboxPlaces,
  o: {
    cwd: string;
    home?: string;
    commandsHome: string;
    route?: EgressRoute;
    services: readonly ServiceRoute[];
    network?: RunOptions['network'];
    see?: string[];
  },
): string[] {
  const program = o.home !== undefined && o.home !== o.commandsHome;
  const writable = [o.cwd, o.home ?? o.commandsHome, ...(o.see ?? [])].map((w) => real(w) ?? w);
  const kept = [...places.keep.map((k) => real(k) ?? k), ...writable];
  return privateMountArgs({
    // With the machine's network (`network.fallback: open`) the resolver's file stays: on Ubuntu /etc/resolv.conf links into /run.
    keep: [...kept, ...(o.network === 'open' ? ['/etc/resolv.conf'] : [])],
    // The folders of the commands' PATH (toolEnv) are read-only (path-folders.ts); those the setup steps put under a
    // covered place (#51: a tool cache in /tmp) stay in sight so, when no one else can write them. What the command
    // must write (its cwd, its home) stays writable.
    readOnly: readOnlyPathFolders(kept).filter((r) => !writable.some((w) => under(r, w))),
    hide: [...places.sockets, program ? o.commandsHome : places.programHomes],
    ...(o.route ? { socket: o.route.socket } : {}),
    services: o.services.map((s) => s.socket),
  });
}

/**
 * The command's whole environment: the setup steps' named variables, the tool environment over them, the proxy's
 * variables when the command has the route, and crew's own for it (a server's secrets, the report hooks' routes).
 * Written to the command's stdin as `NAME=value` entries, each ended by a NUL and the list by an empty one, and
 * exported by its own shell (ENV_FROM_STDIN) after `env -i` emptied it: never in an argument, which every user of
 * the machine can read (`ps`, /proc/<pid>/cmdline) for as long as the command runs. /proc/<pid>/environ is its own user's alone.
 */
function envInput(home: string, route: EgressRoute | undefined, reach: SandboxReach, extra: Record<string, string> = {}): string {
  return `${Object.entries({ ...reach.env, ...toolEnv(home), ...(route ? proxyEnv() : {}), ...extra })
    .map(([k, v]) => `${k}=${v}\0`)
    .join('')}\0`;
}

/** How the command's shell takes its environment from stdin (envInput), before anything else; the rest of stdin is the command's. */
const ENV_FROM_STDIN = `while :; do IFS= read -r -d '' e || { echo "crew: the command's environment did not arrive whole" >&2; exit 125; }; [ -n "$e" ] || break; export -- "$e" || exit 125; done; unset e; `;

/** unshare's flags in both sandboxes: their own IPC, PIDs (with a fresh /proc) and, unless the network is open, network. */
function namespaceArgs(network: RunOptions['network']): string[] {
  return ['--ipc', '--pid', '--fork', '--mount-proc', ...(network === 'open' ? [] : ['--net']), '--'];
}

/** A sandboxed command: its arguments, and what its stdin starts with (envInput). */
interface Sandboxed {
  argv: string[];
  input: string;
}

/** A command (not a program, whose stdin is its protocol) reads nothing after its environment, as when its stdin was /dev/null. */
const NO_INPUT = 'exec </dev/null; ';

/** How both sandboxes end: an empty environment, and bash taking the tool's from stdin (envInput), then running `script` with the folder as $1 and the command as $2. */
function shellArgs(command: string, opts: StartOptions, script: string): string[] {
  return ['env', '-i', 'bash', '--noprofile', '--norc', '-c', `${ENV_FROM_STDIN}${script}`, 'crew-command', opts.cwd, command];
}

/** A fresh home beside `home` where commands run as crew's (or the person's) own user: the home is theirs as it is. */
function sameUserHome(home: string, fill?: (dir: string) => Promise<void>): Promise<ProgramHome> {
  return freshHome(
    join(dirname(home), 'crew-program-homes'),
    async () => undefined,
    (dir) => rm(dir, { recursive: true, force: true }),
    fill,
  );
}

function runProcess(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; maxOutputBytes: number; input?: string },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], detached: true });
    if (child.pid) runningCommands.add(child.pid);
    if (opts.input !== undefined) {
      // A command whose sandbox failed before it read its environment ends, and says so: its exit is what is reported.
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(opts.input);
    }
    // The whole output streams through: its head and tail are kept, the rest counted (domain/kept-output.ts).
    const kept = new OutputKeeper(opts.maxOutputBytes);
    const keep = (d: Buffer) => kept.push(d);
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, opts.timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (child.pid) runningCommands.delete(child.pid);
      const out = kept.result();
      resolve({
        exitCode: code ?? (signal ? 128 + 9 : 1),
        output: out.text,
        timedOut,
        truncated: out.cut !== undefined,
        size: { bytes: out.bytes, lines: out.lines },
      });
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ exitCode: 127, output: `could not start the command: ${e.message}`, timedOut: false, truncated: false });
    });
  });
}

/**
 * The sandbox: each command runs as an unprivileged user with no sudo, in new PID,
 * mount and network namespaces. It cannot see crew's process (or read its
 * /proc/<pid>/environ), cannot reach the network, and has no credentials.
 */
export class NamespaceRunner implements CommandRunner {
  readonly sandboxed = true;
  readonly description: string;

  constructor(
    private readonly home: string,
    /** A folder the tool user cannot write, for the sanitised git config (never write as root where it can plant links). */
    private readonly privateDir: string,
    private readonly viaSudo: boolean,
    private readonly places: SandboxPlaces,
    /** The way to crew's egress proxy, when there is one: commands asking for `network: 'allowlist'` get it. */
    readonly egress?: EgressRoute,
    private readonly reach: SandboxReach = {},
  ) {
    this.description = `sandboxed: commands run as user ${TOOL_USER} (no sudo) in their own PID, mount and network namespaces, with no credentials, an allow-listed environment and a private /tmp and /run`;
  }

  async run(command: string, opts: RunOptions): Promise<CommandResult> {
    const { argv, input } = await this.argv(command, opts, `${NO_INPUT}umask 000; cd "$1" && eval "$2"`);
    const [cmd, ...args] = argv;
    // The command enters its folder itself, as the tool user: one of the tool user's own (a run's home, 0700) is closed to crew's user.
    return runProcess(cmd!, args, { ...opts, cwd: '/', env: { PATH: ownPath() }, input });
  }

  start(command: string, opts: StartOptions): StartedProgram {
    // The git config is sanitised when the sandbox runs its first command (prepareSandbox's probe), before any server starts.
    const { argv, input } = this.argvSync(command, opts, 'cd "$1" && eval exec "$2"', true);
    const [cmd, ...args] = argv;
    return startProcess(cmd!, args, { cwd: '/', env: { PATH: ownPath() }, viaSudo: this.viaSudo, input });
  }

  programHome(fill?: (dir: string) => Promise<void>): Promise<ProgramHome> {
    const privileged = (cmd: string, args: string[]) => (this.viaSudo ? exec('sudo', ['-n', cmd, ...args]) : exec(cmd, args));
    return freshHome(
      this.places.programHomes,
      async (dir) => {
        await privileged('chown', ['-R', `${TOOL_USER}:`, dir]);
        await privileged('chmod', ['700', dir]);
      },
      // The tool user's files: only root may remove them.
      (dir) => privileged('rm', ['-rf', '--', dir]),
      fill,
    );
  }

  private async argv(command: string, opts: Omit<RunOptions, 'timeoutMs' | 'maxOutputBytes'>, script: string): Promise<Sandboxed> {
    // The checkout's .git/config is replaced, inside the command's mount namespace, by a copy without
    // credentials or command-running keys, in case a token was persisted there (actions/checkout's default).
    await writeFile(join(this.privateDir, 'git-config'), await sanitizedGitConfig(opts.cwd));
    return this.argvSync(command, opts, script);
  }

  /** `program`: a long-lived program (an MCP server) gets only the variables named for it, not `sandbox_env`. */
  private argvSync(command: string, opts: StartOptions, script: string, program = false): Sandboxed {
    const safeConfig = join(this.privateDir, 'git-config');
    const route = egressRoute(this.egress, opts);
    const services = servicesOf(this.reach, opts.network);
    const inner = [
      'unshare',
      ...namespaceArgs(opts.network),
      'sh',
      '-c',
      `${route || services.length ? 'ip link set lo up || exit 125; ' : ''}if [ -f "$1/.git/config" ]; then mount --bind "$2" "$1/.git/config" || exit 125; fi; shift 2; exec "$@"`,
      'crew-mount',
      opts.cwd,
      safeConfig,
      ...placesArgs(this.places, { cwd: opts.cwd, home: opts.home, commandsHome: this.home, route, services, network: opts.network, see: opts.see }),
      ...forwarderArgs(route, services),
      'setpriv',
      `--reuid=${TOOL_USER}`,
      `--regid=${TOOL_USER}`,
      '--clear-groups',
      '--no-new-privs',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--',
      ...shellArgs(command, opts, script),
    ];
    return { argv: this.viaSudo ? ['sudo', '-n', ...inner] : inner, input: envInput(opts.home ?? this.home, route, program ? {} : this.reach, opts.env) };
  }
}

/**
 * The sandbox without root: user, PID, mount and network namespaces that any user may
 * create where the kernel allows it (a maintainer's machine, often; GitHub's runners
 * forbid it). No network, crew's process and its environment out of sight, the
 * repository's git folders read-only (so no hook or config can be planted for crew's
 * or the person's own git); but files the user can read and write stay reachable.
 */
export class UserNamespaceRunner implements CommandRunner {
  readonly sandboxed = true;
  readonly description =
    "sandboxed with user namespaces: commands run in their own network namespace with a private /tmp and /run, cannot see crew's process or its environment, and cannot change the repository's .git (or crew's .crew state beside it); they can still read and write the files your own user can (for example ~/.ssh)";

  constructor(
    private readonly home: string,
    private readonly readOnly: string[],
    private readonly places: SandboxPlaces,
    readonly egress?: EgressRoute,
    private readonly reach: SandboxReach = {},
  ) {}

  run(command: string, opts: RunOptions): Promise<CommandResult> {
    const { argv, input } = this.argv(command, opts, `${NO_INPUT}cd "$1" && eval "$2"`);
    return runProcess('unshare', argv, { ...opts, env: { PATH: ownPath() }, input });
  }

  start(command: string, opts: StartOptions): StartedProgram {
    const { argv, input } = this.argv(command, opts, 'cd "$1" && eval exec "$2"', true);
    return startProcess('unshare', argv, { cwd: opts.cwd, env: { PATH: ownPath() }, input });
  }

  programHome(fill?: (dir: string) => Promise<void>): Promise<ProgramHome> {
    // Commands here run as the person's own user, so the home is theirs as it is.
    return freshHome(
      this.places.programHomes,
      async () => undefined,
      (dir) => rm(dir, { recursive: true, force: true }),
      fill,
    );
  }

  private argv(command: string, opts: StartOptions, script: string, program = false): Sandboxed {
    const route = egressRoute(this.egress, opts);
    const services = servicesOf(this.reach, opts.network);
    const argv = [
      '--user',
      '--map-root-user',
      ...namespaceArgs(opts.network),
      'sh',
      '-c',
      `${route || services.length ? 'ip link set lo up || exit 125; ' : ''}n=$1; shift; while [ "$n" -gt 0 ]; do mount --bind "$1" "$1" && { mount -o "remount,bind,ro,$2" "$1" 2>/dev/null || mount -o remount,bind,ro "$1"; } || exit 125; shift 2; n=$((n-1)); done; exec "$@"`,
      'crew-ro',
      String(this.readOnly.length),
      ...readOnlyPairs(this.readOnly),
      ...placesArgs(this.places, { cwd: opts.cwd, home: opts.home, commandsHome: this.home, route, services, network: opts.network, see: opts.see }),
      ...forwarderArgs(route, services),
      ...shellArgs(command, opts, script),
    ];
    return { argv, input: envInput(opts.home ?? this.home, route, program ? {} : this.reach, opts.env) };
  }
}

/** The user-namespace sandbox, if this machine allows it: it must start, and really have no network. */
export async function prepareUserNamespace(workspace: string, tempDir: string, egress?: EgressRoute, reach: SandboxReach = {}): Promise<PreparedSandbox> {
  const gitDirs = new Set<string>();
  for (const flag of ['--git-common-dir', '--absolute-git-dir']) {
    const out = await exec(ownGit(), ['-C', workspace, 'rev-parse', flag], {}).catch(() => undefined);
    if (out?.stdout.trim()) gitDirs.add(resolvePath(workspace, out.stdout.trim()));
  }
  // Local mode keeps its state beside the repository's git folder (`.crew/`: runs, allowed setup commands): read-only too.
  for (const d of [...gitDirs]) {
    const state = join(dirname(d), '.crew');
    if (d.endsWith('/.git') && (await stat(state).catch(() => undefined))?.isDirectory()) gitDirs.add(state);
  }
  const home = join(tempDir, 'crew-tool-home');
  if (await mkdir(home, { recursive: true })) await copyHomeCaches(home, reach.caches);
  const places: SandboxPlaces = {
    keep: [workspace, tempDir, ...gitDirs],
    sockets: [...(egress ? [egress.socket] : []), ...(reach.services ?? []).map((s) => s.socket), ...namedSockets()],
    programHomes: join(tempDir, 'crew-program-homes'),
  };
  const runner = new UserNamespaceRunner(home, [...gitDirs], places, undefined, reach);
  // It must start, and the repository's git folders (if any) must really be read-only inside.
  const check = [...gitDirs].map((d) => `test ! -w '${d.replace(/'/g, "'\\''")}' && `).join('');
  // The probe's mount table also tells which PATH folders could not be made read-only (lockedNote), said once.
  const probe = await runner.run(`${check}echo ok && { grep -F ' - tmpfs ${LOCKED_MOUNT} ' /proc/self/mountinfo || true; }`, {
    cwd: workspace,
    timeoutMs: 20_000,
    maxOutputBytes: 20_000,
  });
  const [said, ...mounts] = probe.output.trim().split('\n');
  if (probe.exitCode !== 0 || said !== 'ok') return { reason: `user namespaces are not available here (${said?.slice(0, 160) || `exit ${probe.exitCode}`})` };
  const prepared = await withEgress(runner, egress, (route) => new UserNamespaceRunner(home, [...gitDirs], places, route, reach), workspace);
  const notes = lockedNote(mounts.join('\n'));
  return 'runner' in prepared && notes.length ? { ...prepared, notes } : prepared;
}

/** A sandbox that started, and whether its commands can have the egress allowlist (and why not). */
export type PreparedSandbox =
  { runner: CommandRunner; egressProblem?: string; /** For the job log, once: what the sandbox had to leave out. */ notes?: string[] } | { reason: string };

/**
 * The same sandbox with the route to the egress proxy, if a command in it really reaches the proxy
 * (`ip` brings up the namespace's loopback, crew's node runs there, the socket answers); otherwise the
 * sandbox without it, and why.
 */
async function withEgress(
  plain: CommandRunner,
  egress: EgressRoute | undefined,
  make: (route: EgressRoute) => CommandRunner,
  workspace: string,
): Promise<PreparedSandbox> {
  if (!egress) return { runner: plain };
  const routed = make(egress);
  const probe = await routed.run('echo ok', { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 2000, network: 'allowlist' });
  if (probe.exitCode === 0 && probe.output.trim() === 'ok') return { runner: routed };
  const said =
    probe.output
      .trim()
      .split('\n')
      .find((l) => l.startsWith('crew:')) ?? probe.output.trim().split('\n')[0];
  return { runner: plain, egressProblem: `the sandbox could not reach crew's egress proxy (${said?.slice(0, 200) || `exit ${probe.exitCode}`})` };
}

/**
 * Without a sandbox: the environment is still scrubbed and the path jail still holds
 * for file tools, but a command runs as crew's own user and could read anything that
 * user can, including the parent process's environment. Only used when config allows it.
 */
export class UnsandboxedRunner implements CommandRunner {
  readonly sandboxed = false;
  readonly description =
    'NOT sandboxed: commands run as crew’s own user with a scrubbed environment; they can read files that user can read and reach the network';

  constructor(
    private readonly home: string,
    /** The setup steps' named variables; their services are on this machine's own loopback already. */
    private readonly reach: SandboxReach = {},
  ) {}

  run(command: string, opts: RunOptions): Promise<CommandResult> {
    return runProcess('bash', ['--noprofile', '--norc', '-c', command], { ...opts, env: { ...this.reach.env, ...toolEnv(this.home), ...opts.env } });
  }

  start(command: string, opts: StartOptions): StartedProgram {
    return startProcess('bash', ['--noprofile', '--norc', '-c', `exec ${command}`], {
      cwd: opts.cwd,
      env: { ...toolEnv(opts.home ?? this.home), ...opts.env },
    });
  }

  programHome(fill?: (dir: string) => Promise<void>): Promise<ProgramHome> {
    return sameUserHome(this.home, fill);
  }
}

/** Keys of a checkout's git config that are safe to show a tool: no credentials, nothing that runs a program. */
const SAFE_GIT_KEYS =
  /^(core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol)|remote\.[^.]+\.(url|fetch)|branch\.[^.]+\.(remote|merge)|extensions\.[a-z]+)$/i;

async function sanitizedGitConfig(workspace: string): Promise<string> {
  let listed = '';
  try {
    listed = (await exec(ownGit(), ['config', '--file', join(workspace, '.git', 'config'), '--list'], {})).stdout;
  } catch {
    return '';
  }
  const lines = ["# crew: a sanitised view of this checkout's .git/config"];
  for (const line of listed.split('\n')) {
    const i = line.indexOf('=');
    if (i < 0) continue;
    const key = line.slice(0, i);
    let value = line.slice(i + 1);
    if (!SAFE_GIT_KEYS.test(key)) continue;
    if (/\.url$/i.test(key)) value = value.replace(/\/\/[^/@]*@/, '//');
    const dot = key.indexOf('.');
    const last = key.lastIndexOf('.');
    const section = key.slice(0, dot);
    const sub = dot === last ? '' : ` "${key.slice(dot + 1, last)}"`;
    lines.push(`[${section}${sub}]`, `\t${key.slice(last + 1)} = ${JSON.stringify(value)}`);
  }
  return `${lines.join('\n')}\n`;
}

async function can(cmd: string, args: string[]): Promise<boolean> {
  try {
    await exec(cmd, args, { timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

type Privileged = (cmd: string, args: string[]) => Promise<unknown>;

/** Lets the tool user reach and write the workspace, but not .git (crew's own git must not run a hook it planted). */
async function openWorkspace(workspace: string, privileged: Privileged): Promise<void> {
  for (let dir = dirname(workspace); ; dir = dirname(dir)) {
    if (((await stat(dir)).mode & 0o001) === 0) await privileged('chmod', ['o+x', dir]);
    if (dir === dirname(dir)) break;
  }
  // `! -type l`: chmod follows symbolic links, and a checkout may hold one pointing anywhere (run as root, that
  // would hand the tool user write access to whatever it points at).
  await privileged('find', [workspace, '-path', join(workspace, '.git'), '-prune', '-o', '!', '-type', 'l', '-exec', 'chmod', 'a+rwX', '{}', '+']);
}

/**
 * Prepares the sandbox at job start: creates the tool user (as root, or through
 * passwordless sudo as on GitHub's runners), gives it a home and the workspace, and
 * checks a command really runs inside. Returns undefined with the reason when it cannot.
 */
export async function prepareSandbox(workspace: string, tempDir: string, egress?: EgressRoute, reach: SandboxReach = {}): Promise<PreparedSandbox> {
  const root = process.getuid?.() === 0;
  const sudo = root ? [] : (await can('sudo', ['-n', 'true'])) ? ['sudo', '-n'] : undefined;
  if (!sudo) return { reason: 'crew is not root and has no passwordless sudo, so it cannot create the tool user or its namespaces' };
  const run: Privileged = (cmd, args) => (sudo.length ? exec('sudo', ['-n', cmd, ...args]) : exec(cmd, args));
  try {
    // Another job on the same machine may create the user at the same moment: only a user that still does not exist is an error.
    if (!(await can('id', [TOOL_USER])))
      await run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', TOOL_USER]).catch(async (e) => {
        if (!(await can('id', [TOOL_USER]))) throw e;
      });
    const home = join(tempDir, 'crew-tool-home');
    // A second sandbox in the same job (a chained task) finds the home already handed to the tool user, where crew's
    // own user may no longer write: it is kept as it is.
    const toolUid = Number((await exec('id', ['-u', TOOL_USER])).stdout);
    if ((await stat(home).catch(() => undefined))?.uid !== toolUid) {
      await mkdir(home, { recursive: true });
      await writeFile(join(home, '.gitconfig'), TOOL_GITCONFIG);
      await copyHomeCaches(home, reach.caches);
      await run('chown', ['-R', `${TOOL_USER}:`, home]);
      await chmod(home, 0o700).catch(() => undefined);
    }
    await openWorkspace(workspace, run);
    const privateDir = join(tempDir, 'crew-sandbox');
    await mkdir(privateDir, { recursive: true, mode: 0o755 });
    const places: SandboxPlaces = {
      keep: [workspace, tempDir],
      sockets: [...(egress ? [egress.socket] : []), ...(reach.services ?? []).map((s) => s.socket), ...namedSockets()],
      programHomes: join(privateDir, 'homes'),
    };
    const runner = new NamespaceRunner(home, privateDir, sudo.length > 0, places, undefined, reach);
    const probe = await runner.run('id -un', { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 1000 });
    if (probe.exitCode !== 0 || probe.output.trim() !== TOOL_USER)
      return { reason: `the sandbox did not start (${probe.output.trim().slice(0, 200) || `exit ${probe.exitCode}`})` };
    return await withEgress(runner, egress, (route) => new NamespaceRunner(home, privateDir, sudo.length > 0, places, route, reach), workspace);
  } catch (e) {
    return { reason: `setting up the sandbox failed: ${(e as Error).message.split('\n')[0]}` };
  }
}
