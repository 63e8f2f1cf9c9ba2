/**
 * The egress allowlist for model-written code: which hosts setup on a model-written tree (and, with
 * `network.tools: allowlist`, the agents' commands) may reach through crew's proxy, and the requests
 * it refused. Pure: the proxy (src/sandbox/egress/) asks `hostAllowed`, the steps count and render.
 */

/**
 * What a repository's manifests and lockfiles need by default, by ecosystem. Each host is matched
 * exactly; a `*.` prefix would allow its subdomains, and none here needs one.
 */
export const DEFAULT_EGRESS_HOSTS: Readonly<Record<string, readonly string[]>> = {
  // npm's registry (package-lock.json's `resolved`), and yarn classic's alias of it (yarn.lock).
  npm: ['registry.npmjs.org', 'registry.yarnpkg.com'],
  // PyPI's index and the host its files are served from.
  pypi: ['pypi.org', 'files.pythonhosted.org'],
  // crates.io's sparse index and its download host.
  crates: ['crates.io', 'index.crates.io', 'static.crates.io'],
  // Go's module proxy and checksum database (GOPROXY, GOSUMDB defaults).
  go: ['proxy.golang.org', 'sum.golang.org'],
  rubygems: ['rubygems.org', 'index.rubygems.org'],
  // Maven Central under both of its names.
  maven: ['repo.maven.apache.org', 'repo1.maven.org'],
  // git dependencies and release tarballs: github.com, its archive host, and where release assets redirect.
  github: ['github.com', 'codeload.github.com', 'objects.githubusercontent.com', 'release-assets.githubusercontent.com'],
};

export const DEFAULT_HOSTS: readonly string[] = Object.values(DEFAULT_EGRESS_HOSTS).flat();

/** A host name or `*.domain` as `network.allow` takes it: letters, digits, hyphens and dots, no scheme, port or path. */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST_PATTERN = new RegExp(`^(?:\\*\\.)?${LABEL}(?:\\.${LABEL})+$`);

/** Why `entry` is not a host `network.allow` can hold, or null when it is. */
export function hostEntryProblem(entry: string): string | null {
  const e = entry.trim().toLowerCase();
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(e)) return 'a host name only, without a scheme such as https://';
  if (/[/:]/.test(e)) return 'a host name only, without a port or a path';
  if (!HOST_PATTERN.test(e)) return 'a host name such as `npm.example.com`, or `*.example.com` for its subdomains';
  return null;
}

/** A host as a request names it: lower case, without a trailing dot or IPv6 brackets. */
export function normaliseHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[|\]$/g, '');
}

/** Whether `host` is on the list: an exact entry, or under a `*.domain` entry (not the domain itself). */
export function hostAllowed(allow: readonly string[], host: string): boolean {
  const h = normaliseHost(host);
  return allow.some((entry) => {
    const e = entry.toLowerCase();
    return e.startsWith('*.') ? h.endsWith(e.slice(1)) && h.length > e.length - 1 : h === e;
  });
}

/** The allowlist a job uses: the defaults (unless turned off) and the repository's own hosts. */
export function egressAllowlist(network: { allow: readonly string[]; defaults: boolean }): string[] {
  return [...new Set([...(network.defaults ? DEFAULT_HOSTS : []), ...network.allow.map((h) => h.trim().toLowerCase())])];
}

/** Refused requests, counted by host. */
export type Refusals = Record<string, number>;

export function addRefusals(...counts: Array<Refusals | undefined>): Refusals {
  const out: Refusals = {};
  for (const c of counts) for (const [host, n] of Object.entries(c ?? {})) out[host] = (out[host] ?? 0) + n;
  return out;
}

/** Every request refused in a run: its tasks' jobs and its critic's, by host. */
export function runRefusals(tasks: Iterable<{ refused?: Refusals }>, judgment: { refused?: Refusals } | null | undefined): Refusals {
  return addRefusals(...[...tasks].map((t) => t.refused), judgment?.refused);
}

/** Distinct hosts the proxy counts one by one; the rest are counted together under OTHER_HOSTS, so a flood of names stays small. */
export const MAX_COUNTED_HOSTS = 50;
export const OTHER_HOSTS = '(other hosts)';

/** What has been refused since `before` was taken (counts only grow). */
export function refusalsSince(now: Refusals, before: Refusals): Refusals {
  const out: Refusals = {};
  for (const [host, n] of Object.entries(now)) if (n > (before[host] ?? 0)) out[host] = n - (before[host] ?? 0);
  return out;
}

/** `evil.example (3), other.example (1)`: most refused first, then by name. */
export function describeRefusals(r: Refusals): string {
  return Object.entries(r)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([host, n]) => `${host} (${n})`)
    .join(', ');
}

/**
 * How model-written code reaches the network in a job:
 * - `allowlist`: through crew's proxy, only to allowed hosts; the sandbox has no other way out;
 * - `offline`: no network at all (the allowlist could not be set up, and `network.fallback` is `offline`);
 * - `open`: the machine's network, unfiltered (`network.fallback: open`, or no sandbox with `allow_unsandboxed`).
 */
export type EgressMode = 'allowlist' | 'offline' | 'open';
