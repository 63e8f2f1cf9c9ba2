import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * Stand-ins for the setup actions a repository's own setup steps use (#51), played in-process by the
 * offline runner. Each does what can be done offline and records its inputs; each follows the real
 * action's action.yml (inputs, outputs, `post` with its `post-if`) and its README:
 * - actions/cache (action.yml: inputs path, key, restore-keys, fail-on-cache-miss, lookup-only, save-always;
 *   output cache-hit; post `dist/save`, post-if `success()`): restores the entry whose key is `key`, else the
 *   newest whose key starts with a restore key (then cache-hit is 'false'); saves `path` at the job's end
 *   unless the primary key hit, and never over an existing key ("Cache already exists"). docs "Caching
 *   dependencies to speed up workflows": an entry is found only with the same `path` (its version), and only
 *   from the same ref or the default branch ("Restrictions for accessing a cache").
 * - actions/setup-node (inputs node-version, node-version-file, cache, cache-dependency-path; outputs
 *   node-version, cache-hit; post `dist/cache-save`, post-if `success()`): puts this machine's node on PATH
 *   from the runner's tool cache (it cannot download another version: it records the one asked for and
 *   warns when its major differs, and fails, as the action does, on a version no release could match);
 *   `cache: npm` caches npm's cache folder (`~/.npm`, not node_modules) keyed
 *   by the lockfile's hash, `node-cache-<os>-<arch>-npm-<hash>`, and fails without a lockfile as the action
 *   does ("Dependencies lock file is not found").
 * - actions/setup-python (inputs python-version, python-version-file, cache; outputs python-version,
 *   python-path, cache-hit): this machine's python3 on PATH; `cache: pip` caches pip's cache folder keyed by
 *   requirements*.txt.
 * - actions/setup-go, as v5 is (action.yml: inputs go-version, go-version-file, cache (default true),
 *   cache-dependency-path; outputs go-version, cache-hit; post `dist/cache-save`, post-if `success()`): this
 *   machine's go on PATH from the tool cache (it records the version asked for and warns when it is not the
 *   machine's), and `go env GOPATH`/bin; go-version wins over go-version-file, whose version is go.mod's or go.work's `go` line, else the
 *   file's whole text (src/installer.ts, parseGoVersionFile); the cache is `go env GOMODCACHE` and `go env GOCACHE`
 *   keyed `setup-go-<os>-<arch>-<ImageOS>-go-<version in use>-<hash of go.sum or cache-dependency-path>` with no restore
 *   key (src/cache-restore.ts; v6 keys by go.mod instead); a missing go.sum is the warning "Restore cache failed:
 *   Dependencies file is not found in <workspace>. Supported file pattern: go.sum", not a failure, and nothing is saved.
 */

/** What a stand-in gets from the runner for one step. */
export interface StandInStep {
  with: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  workspace: string;
  exportVariable: (name: string, value: string) => Promise<void>;
  addPath: (dir: string) => Promise<void>;
  setOutput: (name: string, value: string) => Promise<void>;
  log: (line: string) => void;
  /** The job's ref (`GITHUB_REF`) and the repository's default branch, for the cache's scope. */
  ref: string;
  defaultBranch: string;
}

/** What a stand-in leaves for the job's end: its post step, run when the job so far succeeded (post-if: success()) or `always`. */
export interface StandInPost {
  post?: { run: () => Promise<void>; always?: boolean };
}

export type StandIn = (step: StandInStep) => Promise<void | StandInPost>;

/** One saved entry of the fake cache service. */
interface Entry {
  key: string;
  version: string;
  ref: string;
  at: number;
  /** Where each path's copy lies in the entry's folder, by the path as given. */
  paths: Record<string, string>;
}

/** The cache service of the fake world: entries on disk, kept between the world's workflow runs. */
export class CacheStore {
  /** Every save and restore, for tests and the bench: the key, and whether it restored or saved. */
  readonly events: Array<{ kind: 'restore' | 'save' | 'miss' | 'exists' | 'no-paths'; key: string; job: string; ms: number }> = [];

  constructor(readonly dir: string) {}

  private async entries(): Promise<Array<Entry & { folder: string }>> {
    if (!existsSync(this.dir)) return [];
    const out: Array<Entry & { folder: string }> = [];
    for (const name of await readdir(this.dir)) {
      const meta = join(this.dir, name, 'entry.json');
      if (existsSync(meta)) out.push({ ...(JSON.parse(await readFile(meta, 'utf8')) as Entry), folder: join(this.dir, name) });
    }
    return out;
  }

  /** The entry a restore finds: the primary key exactly, else the newest with a restore key's prefix; this ref first, then the default branch. */
  async find(keys: { primary: string; restore: string[] }, version: string, refs: string[]) {
    const all = (await this.entries()).filter((e) => e.version === version && refs.includes(e.ref));
    const byRef = (list: typeof all) => refs.map((r) => list.filter((e) => e.ref === r).sort((a, b) => b.at - a.at)).flat();
    const exact = byRef(all.filter((e) => e.key === keys.primary))[0];
    if (exact) return { entry: exact, hit: true };
    for (const prefix of keys.restore) {
      const found = byRef(all.filter((e) => e.key.startsWith(prefix)))[0];
      if (found) return { entry: found, hit: false };
    }
    return undefined;
  }

  async restore(entry: Entry & { folder: string }, expand: (p: string) => string): Promise<void> {
    for (const [path, copy] of Object.entries(entry.paths)) {
      const target = expand(path);
      await rm(target, { recursive: true, force: true });
      await cp(join(entry.folder, copy), target, { recursive: true, verbatimSymlinks: true });
    }
  }

  /**
   * Saves what the paths hold now: 'exists' when the key is there already in this ref's scope, 'no-paths' when
   * none of the paths exists (actions/cache then warns "Path Validation Error" and saves nothing).
   */
  async save(key: string, version: string, ref: string, paths: string[], expand: (p: string) => string): Promise<'save' | 'exists' | 'no-paths'> {
    if ((await this.entries()).some((e) => e.key === key && e.version === version && e.ref === ref)) return 'exists';
    if (!paths.some((p) => existsSync(expand(p)))) return 'no-paths';
    const folder = join(this.dir, createHash('sha256').update(`${ref}\n${version}\n${key}`).digest('hex').slice(0, 16));
    await mkdir(folder, { recursive: true });
    const copies: Record<string, string> = {};
    for (const [i, path] of paths.entries()) {
      const source = expand(path);
      if (!existsSync(source)) continue;
      await cp(source, join(folder, `p${i}`), { recursive: true, verbatimSymlinks: true });
      copies[path] = `p${i}`;
    }
    await writeFile(join(folder, 'entry.json'), JSON.stringify({ key, version, ref, at: Date.now(), paths: copies } satisfies Entry));
    return 'save';
  }
}

const lines = (v: unknown) =>
  String(v ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** `~` as the runner's home, a relative path under the workspace (actions/cache's path rules). */
const expander = (step: StandInStep) => (p: string) => (p.startsWith('~/') ? join(step.env.HOME ?? homedir(), p.slice(2)) : resolve(step.workspace, p));

/** actions/cache's version of an entry: its paths (and compression), so a restore with other paths finds nothing. */
const versionOf = (paths: string[]) =>
  createHash('sha256')
    .update([...paths, 'gzip'].join('|'))
    .digest('hex');

/** The cache part that actions/cache and the setup actions share: restore now, save in the post step unless the primary key hit. */
async function cached(
  store: CacheStore,
  step: StandInStep,
  o: { paths: string[]; key: string; restore: string[]; failOnMiss?: boolean; lookupOnly?: boolean; saveAlways?: boolean },
): Promise<StandInPost & { hit: boolean }> {
  const t0 = performance.now();
  const refs = [...new Set([step.ref, `refs/heads/${step.defaultBranch}`])];
  const version = versionOf(o.paths);
  const found = await store.find({ primary: o.key, restore: o.restore }, version, refs);
  const job = String(step.env.GITHUB_JOB ?? '');
  if (!found) {
    if (o.failOnMiss) throw new Error(`Failed to restore cache entry. Exiting as fail-on-cache-miss is set. Input key: ${o.key}`);
    step.log(`Cache not found for input keys: ${[o.key, ...o.restore].join(', ')}`);
    store.events.push({ kind: 'miss', key: o.key, job, ms: performance.now() - t0 });
  } else if (!o.lookupOnly) {
    await store.restore(found.entry, expander(step));
    step.log(`Cache restored from key: ${found.entry.key}`);
    store.events.push({ kind: 'restore', key: found.entry.key, job, ms: performance.now() - t0 });
  }
  const hit = !!found?.hit;
  return {
    hit,
    post: {
      always: o.saveAlways,
      run: async () => {
        if (hit) return step.log(`Cache hit occurred on the primary key ${o.key}, not saving cache.`);
        const s0 = performance.now();
        const saved = await store.save(o.key, version, step.ref, o.paths, expander(step));
        step.log(
          {
            save: `Cache saved with key: ${o.key}`,
            exists: `Failed to save: Unable to reserve cache with key ${o.key}, another job may be creating this cache.`,
            'no-paths': 'Path Validation Error: Path(s) specified in the action for caching do(es) not exist, hence no cache is being saved.',
          }[saved],
        );
        store.events.push({ kind: saved, key: o.key, job, ms: performance.now() - s0 });
      },
    },
  };
}

const truthy = (v: unknown) => String(v ?? '').toLowerCase() === 'true';

/** The file hash setup-node and setup-python key their caches by (hashFiles over the lockfiles found). */
function hashOf(workspace: string, files: string[]): string {
  const whole = createHash('sha256');
  for (const f of files)
    whole.update(
      createHash('sha256')
        .update(readFileSync(resolve(workspace, f)))
        .digest(),
    );
  return whole.digest('hex');
}

/** A TOML string value of `key` in `[table]`, read line by line (enough for pyproject.toml's version keys). */
function tomlValue(text: string, table: string, key: string): string | undefined {
  let current = '';
  for (const line of text.split('\n')) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header) current = header[1]!.trim();
    else if (current === table) {
      const m = new RegExp(`^\\s*${key.replace(/-/g, '\\-')}\\s*=\\s*(["'])(.*?)\\1`).exec(line);
      if (m) return m[2];
    }
  }
  return undefined;
}

/**
 * The version setup-python v5 reads from its `python-version-file` (src/utils.ts, getVersionInputFromFile): a .toml file's
 * `project.requires-python` when it has a [project] table, else `tool.poetry.dependencies.python`; .tool-versions'
 * `python` line (comments skipped); else the whole text.
 */
function versionFrom(workspace: string, file: string, field: 'python'): string {
  const path = resolve(workspace, file);
  if (!existsSync(path)) throw new Error(`The specified ${field} version file at: ${path} does not exist`);
  const text = readFileSync(path, 'utf8');
  if (file.endsWith('.toml'))
    return (/^\s*\[project\]/m.test(text) ? tomlValue(text, 'project', 'requires-python') : tomlValue(text, 'tool.poetry.dependencies', 'python')) ?? '';
  if (file.includes('.tool-versions'))
    return (
      text
        .split('\n')
        .filter((l) => !l.trim().startsWith('#'))
        .map((l) => /^\s*python\s*v?\s*([^\s]+)\s*$/.exec(l)?.[1])
        .find(Boolean) ?? ''
    );
  return text.trim();
}

/**
 * actions/setup-node's src/util.ts, getNodeVersionFromFile: a missing file fails the step; a JSON object's
 * `volta.node`, a `devEngines.runtime` entry named node, `engines.node`, else the file `volta.extends` names; a JSON
 * object with none of them gives no version (null). Any other text: an action.yml's `using: node<N>`, else the
 * first line that is a version (`v`, `node `, `nodejs ` before it), else the whole text trimmed.
 */
function nodeVersionFromFile(path: string, log: (line: string) => void): string | null {
  if (!existsSync(path)) throw new Error(`The specified node version file at: ${path} does not exist`);
  const contents = readFileSync(path, 'utf8');
  let manifest: unknown;
  try {
    manifest = JSON.parse(contents);
  } catch {
    log('Node version file is not JSON file');
  }
  if (typeof manifest === 'object' && manifest !== null) {
    const m = manifest as {
      volta?: { node?: string; extends?: string };
      devEngines?: { runtime?: unknown };
      engines?: { node?: string };
    };
    if (m.volta?.node) return m.volta.node;
    const runtimes = [m.devEngines?.runtime].flat().filter(Boolean) as Array<{ name?: string; version?: string }>;
    const node = runtimes.find((r) => r.name?.toLowerCase() === 'node' && r.version);
    if (node) return node.version!;
    if (m.engines?.node) return m.engines.node;
    if (m.volta?.extends) {
      const extended = resolve(dirname(path), m.volta.extends);
      log(`Resolving node version from ${extended}`);
      return nodeVersionFromFile(extended, log);
    }
    return null;
  }
  const using = /^\s+using:\s*['"]?node(?<version>\d+)['"]?\s*(?:#.*)?$/m.exec(contents);
  if (using) return using.groups?.version ?? null;
  return /^(?:node(js)?\s+)?v?(?<version>[^\s]+)$/m.exec(contents)?.groups?.version ?? contents.trim();
}

const SEMVER_PART = String.raw`v?(?:0|[1-9]\d*|[xX*])(?:\.(?:0|[1-9]\d*|[xX*])(?:\.(?:0|[1-9]\d*|[xX*])(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)?)?`;
const SEMVER_SIMPLE = String.raw`(?:(?:[<>]=?|=|~>?|\^)\s*)?${SEMVER_PART}`;
const SEMVER_RANGE = new RegExp(String.raw`^(?:|${SEMVER_PART}\s+-\s+${SEMVER_PART}|${SEMVER_SIMPLE}(?:\s+${SEMVER_SIMPLE})*)$`);

/**
 * Whether setup-node could look a version up at all (src/distributions/official_builds/official_builds.ts): the
 * aliases `lts/<name>`, `current`, `latest`, `node`, else a semver range that `semver.satisfies` reads (node-semver's
 * range grammar: `||` between ranges, `a - b`, comparators with `<`, `>=`, `~`, `^`, x-ranges). Anything else matches
 * no release, and the step fails with "Unable to find Node version '<spec>' for platform linux and architecture x64."
 */
function nodeSpecResolvable(spec: string): boolean {
  if (spec.startsWith('lts/') || ['current', 'latest', 'node'].includes(spec)) return true;
  return spec.split('||').every((range) => SEMVER_RANGE.test(range.trim()));
}

/** A tool cache folder holding a link to this machine's program, put on PATH: what the setup actions leave. */
async function toolOnPath(step: StandInStep, tool: string, version: string, links: Record<string, string>): Promise<string> {
  const bin = join(String(step.env.RUNNER_TOOL_CACHE), tool, version, 'x64', 'bin');
  await mkdir(bin, { recursive: true });
  for (const [name, target] of Object.entries(links)) if (!existsSync(join(bin, name))) await symlink(target, join(bin, name));
  await step.addPath(bin);
  return bin;
}

/** setup-go v5's parseGoVersionFile: go.mod's or go.work's `go` line, else the whole file. */
function goVersionFrom(workspace: string, file: string): string {
  const path = resolve(workspace, file);
  if (!existsSync(path)) throw new Error(`The specified go version file at: ${path} does not exist`);
  const text = readFileSync(path, 'utf8');
  if (/(^|\/)go\.(mod|work)$/.test(file)) return /^go (\d+(\.\d+)*)/m.exec(text)?.[1] ?? '';
  return text.trim();
}

const setupGo: (store: CacheStore) => StandIn = (store) => async (step) => {
  const file = step.with['go-version-file'] ? String(step.with['go-version-file']) : '';
  const given = step.with['go-version'] ? String(step.with['go-version']) : '';
  if (given && file) step.log('::warning::Both go-version and go-version-file inputs are specified, only go-version will be used');
  const asked = given || (file ? goVersionFrom(step.workspace, file) : '');
  if (!asked) step.log('[warning]go-version input was not specified. The action will try to use pre-installed version.');
  const goEnv = (...names: string[]) =>
    execFileSync('go', ['env', ...names], { env: step.env, encoding: 'utf8' })
      .trim()
      .split('\n');
  let go: string;
  try {
    go = realpathSync(execFileSync('sh', ['-c', 'command -v go'], { env: step.env, encoding: 'utf8' }).trim());
  } catch {
    throw new Error('the offline runner has no go to put on PATH');
  }
  const have = goEnv('GOVERSION')[0]!.replace(/^go/, '');
  if (asked && have !== asked && !have.startsWith(`${asked}.`)) step.log(`::warning::the offline runner has go ${have} only; this step asked for ${asked}`);
  // src/main.ts: a version asked for is put on PATH from the tool cache, else the runner's own go is used as it
  // is; then `go env GOPATH`/bin is made and put on PATH (addBinToPath).
  if (asked) await toolOnPath(step, 'go', have, { go, gofmt: join(dirname(go), 'gofmt') });
  const goBin = join(goEnv('GOPATH')[0]!, 'bin');
  await mkdir(goBin, { recursive: true });
  await step.addPath(goBin);
  await step.setOutput('go-version', have);
  // action.yml: `cache` defaults to true.
  if (step.with.cache !== undefined && !truthy(step.with.cache)) return;
  // src/cache-restore.ts: go.sum at the workspace's top, else the `cache-dependency-path` files that are there
  // (glob.hashFiles); none is a warning (main.ts: "Restore cache failed: …") and no key, so nothing is saved.
  const named = step.with['cache-dependency-path'] ? lines(step.with['cache-dependency-path']) : undefined;
  const deps = (named ?? ['go.sum']).filter((f) => existsSync(resolve(step.workspace, f)));
  if (!deps.length) {
    step.log(
      named
        ? '::warning::Restore cache failed: Some specified paths were not resolved, unable to cache dependencies.'
        : `::warning::Restore cache failed: Dependencies file is not found in ${step.workspace}. Supported file pattern: go.sum`,
    );
    return;
  }
  // Absolute paths, the same on every hosted runner (/home/runner/go/pkg/mod); here HOME is each job's own, so
  // they are given from `~` to keep the entry's version the same between runs.
  const home = String(step.env.HOME ?? homedir());
  const paths = goEnv('GOMODCACHE', 'GOCACHE').map((p) => (p.startsWith(`${home}/`) ? `~/${p.slice(home.length + 1)}` : p));
  const c = await cached(store, step, {
    paths,
    // main.ts keys by the version in use (parseGoVersion of `go version`), not the one asked for.
    key: `setup-go-Linux-x64-${String(step.env.ImageOS)}-go-${have}-${hashOf(step.workspace, deps)}`,
    restore: [],
  });
  await step.setOutput('cache-hit', String(c.hit));
  return { post: c.post! };
};

export function setupActionStandIns(store: CacheStore): Record<string, StandIn> {
  return {
    'actions/cache': async (step) => {
      const paths = lines(step.with.path);
      const key = String(step.with.key ?? '');
      if (!paths.length) throw new Error('Input required and not supplied: path');
      if (!key) throw new Error('Input required and not supplied: key');
      const c = await cached(store, step, {
        paths,
        key,
        restore: lines(step.with['restore-keys']),
        failOnMiss: truthy(step.with['fail-on-cache-miss']),
        lookupOnly: truthy(step.with['lookup-only']),
        saveAlways: truthy(step.with['save-always']),
      });
      await step.setOutput('cache-hit', String(c.hit));
      return { post: c.post! };
    },
    'actions/setup-node': async (step) => {
      // src/main.ts, resolveVersionInput: node-version wins over node-version-file (said); the file is read at
      // path.join(GITHUB_WORKSPACE, file); a file that gives no version is a warning, and the runner's node is used.
      let asked = step.with['node-version'] ? String(step.with['node-version']) : '';
      const file = step.with['node-version-file'] ? String(step.with['node-version-file']) : '';
      if (asked && file) step.log('::warning::Both node-version and node-version-file inputs are specified, only node-version will be used');
      if (!asked && file) {
        const path = join(step.workspace, file);
        const parsed = nodeVersionFromFile(path, step.log);
        if (parsed) asked = parsed;
        else step.log(`::warning::Could not determine node version from ${path}. Falling back`);
        step.log(`Resolved ${file} as ${asked}`);
      }
      if (asked && !nodeSpecResolvable(asked)) throw new Error(`Unable to find Node version '${asked}' for platform linux and architecture x64.`);
      const have = process.version.replace(/^v/, '');
      if (asked && asked.replace(/^[^0-9]*/, '').split('.')[0] !== have.split('.')[0])
        step.log(`::warning::the offline runner has node ${have} only; this step asked for ${asked}`);
      await toolOnPath(step, 'node', have, { node: process.execPath });
      await step.setOutput('node-version', `v${have}`);
      if (!step.with.cache) return;
      if (String(step.with.cache) !== 'npm') throw new Error(`Caching for '${String(step.with.cache)}' is not supported by the offline runner (npm only)`);
      const lockfiles = step.with['cache-dependency-path']
        ? lines(step.with['cache-dependency-path'])
        : ['package-lock.json', 'npm-shrinkwrap.json'].filter((f) => existsSync(resolve(step.workspace, f)));
      if (!lockfiles.length || lockfiles.some((f) => !existsSync(resolve(step.workspace, f))))
        throw new Error(`Dependencies lock file is not found in ${step.workspace}. Supported file patterns: package-lock.json,npm-shrinkwrap.json,yarn.lock`);
      const c = await cached(store, step, { paths: ['~/.npm'], key: `node-cache-Linux-x64-npm-${hashOf(step.workspace, lockfiles)}`, restore: [] });
      await step.setOutput('cache-hit', String(c.hit));
      return { post: c.post! };
    },
    'actions/setup-go': setupGo(store),
    'actions/setup-python': async (step) => {
      const file = String(step.with['python-version-file'] ?? '.python-version');
      const asked = step.with['python-version']
        ? String(step.with['python-version'])
        : existsSync(resolve(step.workspace, file))
          ? versionFrom(step.workspace, file, 'python')
          : '';
      // src/setup-python.ts: no version from the inputs or the file is a warning, and the runner's python is used.
      if (!asked) {
        if (file.includes('.tool-versions') && existsSync(resolve(step.workspace, file))) step.log(`::warning::No Python version found in ${file}`);
        step.log('::warning::The `python-version` input is not set.  The version of Python currently in `PATH` will be used.');
      }
      const python = ['/usr/bin/python3', '/usr/local/bin/python3'].find(existsSync);
      if (!python) throw new Error('the offline runner has no python3 to put on PATH');
      const bin = await toolOnPath(step, 'Python', asked || 'system', { python: python, python3: python });
      await step.setOutput('python-version', asked || 'system');
      await step.setOutput('python-path', join(bin, 'python'));
      if (!step.with.cache) return;
      if (String(step.with.cache) !== 'pip') throw new Error(`Caching for '${String(step.with.cache)}' is not supported by the offline runner (pip only)`);
      const reqs = (await readdir(step.workspace)).filter((f) => /^requirements.*\.txt$/.test(f)).sort();
      if (!reqs.length) throw new Error('No file in the workspace matched to [**/requirements.txt], make sure you have checked out the target repository');
      const c = await cached(store, step, {
        paths: ['~/.cache/pip'],
        key: `setup-python-Linux-x64-python-${asked}-pip-${hashOf(step.workspace, reqs)}`,
        restore: [],
      });
      await step.setOutput('cache-hit', String(c.hit));
      return { post: c.post! };
    },
  };
}
