import { SETUP_ACTION_PATH } from './toolchain-setup';

/**
 * What the repository's setup steps (#51: `.github/actions/crew-setup`, run before crew in the job) may
 * hand to the sandboxed commands, and only when `.github/crew.yml` names it: variables they exported
 * (`sandbox_env`, read from crew's environment, where `$GITHUB_ENV` puts them) and services they started
 * on the runner's loopback (`network.services`, forwarded into the sandbox's own network namespace).
 * Pure: the sandbox (src/sandbox/services.ts, command-runner.ts) and the steps use it.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The egress proxy's port inside the sandbox's own namespace (squid's customary port; sandbox/egress/route.ts listens there). */
export const PROXY_PORT = 3128;

/**
 * Names `sandbox_env` refuses, and why. crew's own secrets reach it as action inputs (`INPUT_*`: the
 * API key, the tokens, `crew_env`), the runner's as `ACTIONS_*` (the cache and OIDC tokens), cloud
 * credentials under their providers' prefixes; and the sandbox sets some names itself (its home, its
 * proxy, the test report hooks' routes), which a repository's value must not replace.
 */
const REFUSED: Array<[RegExp, string]> = [
  [/^INPUT_/i, "an action input of crew's (its API key, tokens and `crew_env` arrive this way)"],
  [/^(ACTIONS_|RUNNER_|GITHUB_)/i, "the runner's own (its tokens, and paths of crew's job)"],
  [/^(ANTHROPIC_|CREW_|CLAUDE_)/i, "crew's own (its model key and settings)"],
  [/^(GH_TOKEN|GITHUB_TOKEN|GH_ENTERPRISE_TOKEN|NPM_TOKEN|NODE_AUTH_TOKEN)$/i, 'a token'],
  [/^(AWS_|GOOGLE_|CLOUDSDK_|AZURE_|ARM_)/i, 'a cloud credential'],
  [
    /^(PATH|HOME|TMPDIR|LANG|TERM|NO_COLOR|CI|HTTPS?_PROXY|ALL_PROXY|NO_PROXY|NODE_USE_ENV_PROXY|JAVA_TOOL_OPTIONS|NODE_OPTIONS|PYTEST_ADDOPTS|PYTHONPATH|GOFLAGS|LD_.*|BASH_ENV|ENV)$/i,
    'set by the sandbox itself (PATH comes from the setup steps already)',
  ],
  // The command's shell exports its environment itself (sandbox/command-runner.ts, envInput): these are its own, read-only
  // (`bash -c 'export UID=1'` fails, and with it every sandboxed command: the sandbox's probe too).
  [/^(SHELLOPTS|BASHOPTS|UID|EUID|PPID|BASH_VERSINFO)$/i, "the sandbox's shell's own"],
  [/^CARGO_TARGET_.*_RUNNER$/i, 'set by the sandbox itself (the test report hooks)'],
];

/** Why `sandbox_env` may not name `name`, or null when it may. */
export function sandboxEnvNameProblem(name: string): string | null {
  if (!NAME.test(name)) return `\`${name}\` is not a variable name: letters, digits and _, not starting with a digit`;
  const refused = REFUSED.find(([p]) => p.test(name));
  return refused ? `\`${name}\` is ${refused[1]}: crew never hands it to model-written code` : null;
}

/**
 * The `sandbox_env` names an MCP server's `env:` or `headers:` also names, each said: that server's secret. crew
 * leaves out a value redaction knows, but a server's variable from the workflow's `env:` is known only once the
 * server starts, after the commands' environment is made.
 */
export function sandboxEnvServerProblems(
  names: readonly string[],
  servers: Record<string, { env: readonly string[]; headers: Record<string, string> }>,
): string[] {
  return names.flatMap((name) => {
    const server = Object.entries(servers).find(([, s]) => s.env.includes(name) || Object.values(s.headers).includes(name));
    return server
      ? [
          `\`sandbox_env\`: \`${name}\` is a variable of the MCP server \`mcp_servers.${server[0]}\`, a secret of that server's: crew never hands it to model-written code. Remove it from \`sandbox_env\`, or give the commands a variable of their own.`,
        ]
      : [];
  });
}

/** A service address `network.services` takes: a loopback address and a port. */
export interface ServiceAddress {
  host: '127.0.0.1' | '::1';
  port: number;
}

/** `127.0.0.1:5432`, `localhost:6379` (taken as 127.0.0.1) or `[::1]:5432`; anything else is refused with why. */
export function parseServiceAddress(entry: string): ServiceAddress | { problem: string } {
  const m = /^(?:\[(::1)\]|(127\.0\.0\.1|localhost)):([0-9]{1,5})$/.exec(entry.trim());
  if (!m) {
    const loopback = /^(\[[^\]]*\]|[^:]+)(?::|$)/.exec(entry.trim())?.[1];
    if (loopback && !/^(127\.0\.0\.1|localhost|\[::1\])$/.test(loopback))
      return {
        problem: `\`${entry}\` is not on the runner's loopback: only services the setup steps start on 127.0.0.1 or [::1] are forwarded (other hosts go through \`network.allow\`)`,
      };
    return { problem: `\`${entry}\` is not an address and port such as \`127.0.0.1:5432\`` };
  }
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return { problem: `\`${entry}\` has no port between 1 and 65535` };
  return { host: m[1] ? '::1' : '127.0.0.1', port };
}

export function serviceKey(a: ServiceAddress): string {
  return a.host === '::1' ? `[::1]:${a.port}` : `${a.host}:${a.port}`;
}

/**
 * Why a `network.services` list cannot be forwarded as a whole, or null: the sandbox's forwarder listens on each
 * address inside the namespace, so an address named twice (`localhost:5432` and `127.0.0.1:5432`) or one the
 * sandbox uses itself (`reserved`: the egress proxy's port) could not be listened on, and every command with
 * the services would fail to start.
 */
export function servicesListProblem(entries: readonly string[], reserved: readonly ServiceAddress[]): string | null {
  const seen = new Map<string, string>();
  for (const entry of entries) {
    const parsed = parseServiceAddress(entry);
    if ('problem' in parsed) continue;
    const key = serviceKey(parsed);
    const before = seen.get(key);
    if (before !== undefined) return `\`${entry}\` is the same address as \`${before}\`: name each service once`;
    if (reserved.some((r) => serviceKey(r) === key)) return `\`${entry}\` is where the sandbox reaches crew's egress proxy: start the service on another port`;
    seen.set(key, entry);
  }
  return null;
}

/** What the job knows about its setup steps' reach, for the hints below. */
export interface ReachFacts {
  /** `sandbox_env` names crew's environment did not hold at the job's start (no setup step exported them). */
  missingVars: readonly string[];
  /** `network.services` addresses, and those that refused crew's connection on the runner during the command. */
  services: readonly string[];
  refusedServices: readonly string[];
  /** Why `network.services`' addresses are unavailable in this job, when they are (no bridge, or no `ip` in the sandbox). */
  servicesOff?: string;
}

/**
 * A line for a failed command's message when its output, or what crew saw, says a service or a variable
 * from the setup steps was missing; null when nothing points there.
 */
export function reachHint(output: string, facts: ReachFacts): string | null {
  const said: string[] = [];
  if (facts.refusedServices.length)
    said.push(
      `nothing listened on the runner at ${facts.refusedServices.join(', ')} (named in network.services): start the service in the repository's setup steps, ${SETUP_ACTION_PATH}`,
    );
  const ports = [...new Set(unreachedLoopback(output).map((a) => String(a.port)))];
  const unnamed = ports.filter((p) => !facts.services.some((s) => s.endsWith(`:${p}`)));
  if (facts.servicesOff && ports.length > unnamed.length)
    said.push(
      `the services network.services names (${facts.services.join(', ')}) were unavailable to the sandboxed commands in this job: ${facts.servicesOff}`,
    );
  if (unnamed.length)
    said.push(
      `a command could not connect to port ${unnamed.join(', ')} on loopback: sandboxed commands have a network of their own, so a service your setup steps (${SETUP_ACTION_PATH}) start on the runner is reachable only when \`network.services\` in .github/crew.yml names its address (docs/workflow.md)`,
    );
  if (facts.missingVars.length)
    said.push(
      `\`sandbox_env\` names ${facts.missingVars.join(', ')}, which no setup step set: export ${facts.missingVars.length > 1 ? 'them' : 'it'} through $GITHUB_ENV in ${SETUP_ACTION_PATH} (docs/workflow.md)`,
    );
  return said.length ? `crew: ${said.join('; ')}.` : null;
}

/**
 * The loopback addresses a command's output says refused a connection or could not be reached (a sandbox
 * whose loopback is down, when it has no services and no route: ENETUNREACH), as the usual clients say it: node
 * (`connect ECONNREFUSED 127.0.0.1:5432`, `::1:5432`), Go (`dial tcp 127.0.0.1:5432: connect: connection
 * refused`), psycopg (`connection to server at "127.0.0.1", port 5432 failed: Connection refused`), curl
 * (`Failed to connect to localhost port 8080 ...: Connection refused`), redis-py (`Error 111 connecting to
 * localhost:6379. Connection refused.`). Only lines that say "refused" or "unreachable" count; `localhost` is taken as 127.0.0.1.
 */
export function unreachedLoopback(output: string): ServiceAddress[] {
  const found = new Map<string, ServiceAddress>();
  for (const line of output.split('\n')) {
    if (!/refused|unreach/i.test(line)) continue;
    for (const m of line.matchAll(/(?<![\w.:])(127\.0\.0\.1|localhost|\[::1\]|::1)(?:\]|"|')?(?::|,? port )([0-9]{1,5})(?![0-9])/gi)) {
      const port = Number(m[2]);
      if (port < 1 || port > 65535) continue;
      const address: ServiceAddress = { host: m[1]!.includes('::1') ? '::1' : '127.0.0.1', port };
      found.set(serviceKey(address), address);
    }
  }
  return [...found.values()];
}
