import { DEFAULT_HOSTS, describeRefusals, egressAllowlist, type EgressMode, type Refusals } from '../domain/egress';
import type { Log } from '../ports';
import type { CommandResult, CommandRunner, EgressRoute, ProgramHome, RunOptions, StartedProgram } from '../sandbox/command-runner';
import type { EgressProxy } from '../sandbox/egress/proxy';

/** `.github/crew.yml`'s `network` key, as the steps read it. */
export interface NetworkConfig {
  allow: string[];
  defaults: boolean;
  tools: 'none' | 'allowlist';
  fallback: 'offline' | 'open';
  /** Services of the setup steps forwarded into the sandbox (#51: sandbox-reach.ts). */
  services?: string[];
}

export const DEFAULT_NETWORK: NetworkConfig = { allow: [], defaults: true, tools: 'none', fallback: 'offline', services: [] };

/**
 * What model-written code in this job can reach, and what crew's proxy refused. One per job: the
 * proxy runs in crew's process as long as the job does.
 */
export interface Egress {
  /** What setup on a model-written tree gets (EgressMode). */
  mode: EgressMode;
  /** What the agents' own commands get. */
  tools: 'none' | EgressMode;
  /** Why the allowlist could not be set up, when it could not. */
  problem?: string;
  /** Requests the proxy refused in this job so far, by host. */
  refused(): Refusals;
  /** The line for the job's log (and the local run's first words). */
  statement: string;
  /** Stops the proxy (the job's process ending does too). */
  close(): Promise<void>;
}

/** Starts the job's egress proxy; its socket is the route a sandbox is prepared with. Undefined (and why) when it cannot start. */
export async function startJobProxy(network: NetworkConfig, log: Pick<Log, 'warn'>): Promise<EgressProxy | { problem: string }> {
  // Loaded here, by the jobs that run model-written code: the proxy brings proxy-chain (docs/PERFORMANCE.md, "Cold start").
  const { startEgressProxy } = await import('../sandbox/egress/proxy');
  try {
    return await startEgressProxy({
      allow: egressAllowlist(network),
      ...(process.env.CREW_EGRESS_RESOLVER ? { resolver: process.env.CREW_EGRESS_RESOLVER } : {}),
      onRefused: (host, port, how, named) => log.warn(refusalLine(host, port, how, named)),
    });
  } catch (e) {
    return { problem: `crew's egress proxy did not start (${(e as Error).message.split('\n')[0]})` };
  }
}

/** The job log's line for one refused request. */
export function refusalLine(host: string, port: number, how: 'CONNECT' | 'HTTP', named?: string): string {
  const what = how === 'CONNECT' ? 'CONNECT' : 'an HTTP request';
  if (named === undefined) return `egress: refused ${what} to ${host}:${port} (not on the allowlist)`;
  if (named.startsWith('(')) return `egress: refused ${what} to ${host}:${port} ${named}`;
  return `egress: refused ${what} to ${host}:${port}: ${how === 'CONNECT' ? 'the TLS inside it' : 'its Host header'} names ${named} (a request reaches only the host it is sent to)`;
}

export function routeOf(proxy: EgressProxy | { problem: string } | undefined): EgressRoute | undefined {
  return proxy && 'socket' in proxy ? { socket: proxy.socket } : undefined;
}

/** The job's egress, once the sandbox is known: the allowlist where the sandbox reaches the proxy, else the fallback. */
export function jobEgress(
  network: NetworkConfig,
  runner: CommandRunner,
  proxy: EgressProxy | { problem: string } | undefined,
  sandboxProblem: string | undefined,
): Egress {
  const live = proxy && 'socket' in proxy ? proxy : undefined;
  const refused = () => live?.refused() ?? {};
  const close = async () => live?.close();
  if (!runner.sandboxed) {
    void live?.close();
    return { mode: 'open', tools: 'open', refused, close, statement: "egress: open (no sandbox): model-written code has the runner's network, unfiltered." };
  }
  if (runner.egress && live) {
    const tools = network.tools === 'allowlist' ? 'allowlist' : 'none';
    const extra = live.allow.filter((h) => !DEFAULT_HOSTS.includes(h));
    const hosts = `${live.allow.length} allowed host${live.allow.length === 1 ? '' : 's'} (${network.defaults ? 'the package registries and GitHub' : 'no defaults'}${extra.length ? `, and ${extra.join(', ')} from network.allow` : ''})`;
    return {
      mode: 'allowlist',
      tools,
      refused,
      close,
      statement: `egress: allowlist. Setup on a model-written tree reaches only the ${hosts} through crew's proxy; every other host, and DNS, fails. The agents' commands have ${tools === 'allowlist' ? 'the same allowlist (network.tools)' : 'no network (network.tools: none)'}.`,
    };
  }
  void live?.close();
  const problem = sandboxProblem ?? (proxy && 'problem' in proxy ? proxy.problem : 'no route to the egress proxy');
  if (network.fallback === 'open')
    return {
      mode: 'open',
      tools: 'none',
      problem,
      refused,
      close,
      statement: `egress: OPEN. crew's egress allowlist could not be set up (${problem}), and network.fallback is open: setup on a model-written tree has the runner's network, unfiltered. The agents' commands have no network.`,
    };
  return {
    mode: 'offline',
    tools: 'none',
    problem,
    refused,
    close,
    statement: `egress: offline. crew's egress allowlist could not be set up (${problem}), so setup on a model-written tree runs without network (network.fallback: offline), and so do the agents' commands.`,
  };
}

/** A job where no model-written setup runs and the agents' commands have no network: no proxy, nothing to reach. */
export function unneeded(): Egress {
  return {
    mode: 'offline',
    tools: 'none',
    refused: () => ({}),
    close: async () => undefined,
    statement: "egress: none needed. No setup runs on a model-written tree in this job, and the agents' commands have no network (network.tools: none).",
  };
}

/** A runner whose commands get `network` unless they ask otherwise: what the agents' commands run through. */
export class NetworkedRunner implements CommandRunner {
  readonly sandboxed: boolean;
  readonly description: string;
  readonly egress?: EgressRoute;

  constructor(
    private readonly inner: CommandRunner,
    private readonly network: RunOptions['network'],
  ) {
    this.sandboxed = inner.sandboxed;
    this.description = inner.description;
    if (inner.egress) this.egress = inner.egress;
  }

  run(command: string, opts: RunOptions): Promise<CommandResult> {
    return this.inner.run(command, { ...opts, network: opts.network ?? this.network });
  }

  start(command: string, opts: Omit<RunOptions, 'timeoutMs' | 'maxOutputBytes'>): StartedProgram {
    if (!this.inner.start) throw new Error('this runner cannot start a long-lived program');
    return this.inner.start(command, { ...opts, network: opts.network ?? this.network });
  }

  programHome(fill?: (dir: string) => Promise<void>): Promise<ProgramHome> {
    if (!this.inner.programHome) throw new Error('this runner cannot make a home of its own');
    return this.inner.programHome(fill);
  }
}

/** The end of a failed setup's message: what the proxy refused meanwhile, or that there was no network, and how to allow it. */
export function setupNetworkAdvice(egress: Egress, refusedDuringSetup: Refusals, optIn: string): string {
  if (egress.mode === 'allowlist') {
    if (!Object.keys(refusedDuringSetup).length) return '';
    return `. crew's egress proxy refused ${describeRefusals(refusedDuringSetup)} meanwhile: if the repository needs ${Object.keys(refusedDuringSetup).length === 1 ? 'that host' : 'those hosts'}, add ${Object.keys(refusedDuringSetup).length === 1 ? 'it' : 'them'} to network.allow in ${optIn}`;
  }
  if (egress.mode === 'offline')
    return `. It ran without network, because crew's egress allowlist could not be set up here (${egress.problem}). Run crew where it is root or has passwordless sudo (the tool user's namespaces need \`unshare\`, \`setpriv\` and \`ip\`), or set network.fallback: open in ${optIn} to give model-written setup the runner's network, unfiltered`;
  return '';
}
