/**
 * The toolchains a repository's own files ask for (`.nvmrc`, `packageManager`, `.python-version`,
 * `requires-python`, `go.mod`'s `go` line, `rust-toolchain.toml`), and the package manager caches
 * that go with them: what `crew init` turns into `.github/actions/crew-setup/action.yml`
 * (src/init/setup-action.ts renders it) and what `crew doctor` compares with the runner's
 * toolchain. Pure: a function of the root files' contents. Also which toolchains an existing
 * setup action sets up.
 */

import { packageJson, type RootFiles } from './stack';

export type Toolchain = 'node' | 'python' | 'go' | 'rust';

export const TOOLCHAINS: readonly Toolchain[] = ['node', 'python', 'go', 'rust'];

/** The local composite action crew's workflows run before crew in the jobs that run the repository's code. */
export const SETUP_ACTION_PATH = '.github/actions/crew-setup/action.yml';

/**
 * The files that say which toolchain versions a repository wants, read by `crew doctor` from the
 * default branch. No lockfile or go.sum: they choose caches, not versions, and one over 1 MB is more
 * than GitHub's contents API sends (the read would fail, and doctor with it).
 */
export const TOOLCHAIN_FILES = [
  '.nvmrc',
  '.node-version',
  'package.json',
  '.python-version',
  'pyproject.toml',
  'go.mod',
  'rust-toolchain.toml',
  'rust-toolchain',
  '.tool-versions',
] as const;

export interface DeclaredVersion {
  tool: Toolchain;
  /** What the file asks for, as written: `18`, `>=3.12`, `1.22.3`, `1.78.0`. */
  version: string;
  /** Where, as a person says it: `.nvmrc`, `package.json (engines.node)`, `go.mod (go line)`. */
  source: string;
  /** The file the setup action reads the version from (`node-version-file:` and the like); none when the action cannot read it there, so the step names the version itself. */
  file?: string;
}

export interface ToolchainSetup {
  /** Node, when the repository has a package.json; the version when a file names one. */
  node?: {
    version?: DeclaredVersion;
    /** package.json's `packageManager` (pnpm or yarn run through corepack), when it names one of them. */
    packageManager?: { name: 'pnpm' | 'yarn'; version: string };
    /** setup-node's `cache:`, from the lockfile there is. */
    cache?: { manager: 'npm' | 'pnpm' | 'yarn'; lockfile: string };
  };
  python?: {
    version: DeclaredVersion;
    /** setup-python's `cache: pip`, keyed by these files; none for uv or Poetry projects (their caches need their tools first). */
    pipCache?: string[];
  };
  go?: { version: DeclaredVersion; /** setup-go caches modules keyed by go.sum; none without one. */ cache: boolean };
  rust?: { version: DeclaredVersion };
}

/**
 * asdf's `.tool-versions` (also mise's): `<tool> <version> [<fallback>…]` a line, `#` starts a comment; the
 * first version of the first line naming one of `names`. `plain`: the line is only the tool and that
 * version, the one form setup-node v4 and setup-python v5 read from the file (src/util.ts,
 * getNodeVersionFromFile; src/utils.ts, getVersionInputFromToolVersions): a fallback or a comment after it
 * and setup-node takes the whole file for the version, setup-python none (the runner's python).
 */
function toolVersion(text: string | undefined, names: string[]): { version: string; plain: boolean } | undefined {
  for (const line of (text ?? '').split('\n')) {
    const [tool, version] = line.replace(/#.*/, '').trim().split(/\s+/);
    // A version number only: not `system`, `latest` or `ref:…` (nothing a setup action takes), nor text that
    // would be more than a version in the action.yml written from it.
    if (tool && version && names.includes(tool))
      return /^v?\d[\w.+-]*$/.test(version) ? { version, plain: /^\S+[ \t]+\S+$/.test(line) && !line.includes('#') } : undefined;
  }
  return undefined;
}

/**
 * The version `.tool-versions` gives for a toolchain, read only when no file more particular to it names one;
 * the step reads it from the file (`file`) only where the action can, else the step names the version itself.
 */
function fromToolVersions(files: RootFiles, has: (n: string) => boolean, tool: Toolchain, names: string[], file: boolean): DeclaredVersion | undefined {
  const v = has('.tool-versions') ? toolVersion(files.read('.tool-versions'), names) : undefined;
  return v ? { tool, version: v.version, source: `.tool-versions (${names[0]})`, ...(file && v.plain ? { file: '.tool-versions' } : {}) } : undefined;
}

/** A plain version file's version: its first line, trimmed (`.nvmrc`, `.python-version`, `rust-toolchain`). */
const firstLine = (text: string | undefined) =>
  (text ?? '')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .find(Boolean);

function nodeSetup(files: RootFiles, has: (n: string) => boolean): ToolchainSetup['node'] {
  if (!has('package.json')) return undefined;
  const pkg = packageJson(files);
  const out: NonNullable<ToolchainSetup['node']> = {};
  const engines = pkg.engines as { node?: unknown } | undefined;
  for (const file of ['.nvmrc', '.node-version']) {
    const v = has(file) ? firstLine(files.read(file)) : undefined;
    if (v) {
      out.version = { tool: 'node', version: v, source: file, file };
      break;
    }
  }
  // setup-node's order in package.json (src/util.ts, getNodeVersionFromFile): volta.node, devEngines.runtime, engines.node.
  const volta = (pkg.volta as { node?: unknown } | undefined)?.node;
  const runtime = ([(pkg.devEngines as { runtime?: unknown } | undefined)?.runtime].flat() as Array<{ name?: unknown; version?: unknown } | undefined>).find(
    (r) => typeof r?.name === 'string' && r.name.toLowerCase() === 'node' && typeof r.version === 'string',
  );
  const inPackage: Array<[unknown, string]> = [
    [volta, 'volta.node'],
    [runtime?.version, 'devEngines.runtime'],
    [engines?.node, 'engines.node'],
  ];
  const [v, key] = inPackage.find(([value]) => typeof value === 'string' && value.trim()) ?? [];
  if (!out.version && typeof v === 'string') out.version = { tool: 'node', version: v.trim(), source: `package.json (${key})`, file: 'package.json' };
  // setup-node reads a `.tool-versions` node-version-file: its `nodejs` (or `node`) line (src/util.ts, getNodeVersionFromFile).
  out.version ??= fromToolVersions(files, has, 'node', ['nodejs', 'node'], true);
  const pm = typeof pkg.packageManager === 'string' ? /^(pnpm|yarn)@(\d[\w.+-]*)/.exec(pkg.packageManager) : null;
  if (pm) out.packageManager = { name: pm[1] as 'pnpm' | 'yarn', version: pm[2]!.replace(/\+.*$/, '') };
  const lock = has('pnpm-lock.yaml')
    ? { manager: 'pnpm' as const, lockfile: 'pnpm-lock.yaml' }
    : has('yarn.lock')
      ? { manager: 'yarn' as const, lockfile: 'yarn.lock' }
      : has('package-lock.json')
        ? { manager: 'npm' as const, lockfile: 'package-lock.json' }
        : undefined;
  if (lock) out.cache = lock;
  return out;
}

/** A string key of one table of pyproject.toml: `requires-python` in `[project]` (PEP 621), Poetry's `python` in `[tool.poetry.dependencies]`. */
function pyprojectValue(pyproject: string | undefined, table: string, key: string): string | undefined {
  if (!pyproject) return undefined;
  let current = '';
  for (const line of pyproject.split('\n')) {
    const header = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(line);
    if (header) current = header[1]!.trim();
    else if (current === table) {
      const m = /^\s*([\w-]+)\s*=\s*(["'])(.+?)\2/.exec(line);
      if (m && m[1] === key) return m[3]!.trim();
    }
  }
  return undefined;
}

function pythonSetup(files: RootFiles, has: (n: string) => boolean): ToolchainSetup['python'] {
  const pinned = has('.python-version') ? firstLine(files.read('.python-version')) : undefined;
  const pyproject = files.read('pyproject.toml');
  const requires = pyprojectValue(pyproject, 'project', 'requires-python');
  const poetry = pyprojectValue(pyproject, 'tool.poetry.dependencies', 'python');
  // setup-python reads pyproject.toml's project.requires-python when it has a [project] table, else Poetry's python
  // (src/utils.ts, getVersionInputFromTomlFile); so with a [project] table but no requires-python, the step names Poetry's.
  const projectTable = /^\s*\[project\]/m.test(pyproject ?? '');
  const version: DeclaredVersion | undefined = pinned
    ? { tool: 'python', version: pinned, source: '.python-version', file: '.python-version' }
    : requires
      ? { tool: 'python', version: requires, source: 'pyproject.toml (requires-python)', file: 'pyproject.toml' }
      : poetry
        ? { tool: 'python', version: poetry, source: 'pyproject.toml (tool.poetry.dependencies.python)', ...(projectTable ? {} : { file: 'pyproject.toml' }) }
        : // setup-python reads a `.tool-versions` python-version-file: its `python` line (getVersionInputFromToolVersions).
          fromToolVersions(files, has, 'python', ['python'], true);
  if (!version) return undefined;
  const requirements = files.names.filter((n) => /^requirements.*\.txt$/.test(n)).sort();
  const keyed = [...requirements, ...(has('pyproject.toml') ? ['pyproject.toml'] : [])];
  // A project that installs nothing has no pip cache to keep (setup-python warns that its folder is missing).
  const installs = requirements.length > 0 || /^\s*(dependencies\s*=\s*\[\s*["']|\[project\.optional-dependencies\])/m.test(files.read('pyproject.toml') ?? '');
  const pip = !has('uv.lock') && !has('poetry.lock') && installs;
  return { version, ...(pip ? { pipCache: keyed } : {}) };
}

function goSetup(files: RootFiles, has: (n: string) => boolean): ToolchainSetup['go'] {
  // `toolchain go1.22.5` is the one the module wants built with; `go 1.22` the least it accepts.
  const mod = files.read('go.mod') ?? '';
  const toolchain = /^toolchain\s+go(\d[\w.]*)\s*$/m.exec(mod);
  const go = /^go\s+(\d[\w.]*)\s*$/m.exec(mod);
  const v = toolchain?.[1] ?? go?.[1];
  // setup-go v5 reads a go-version-file's whole text unless it is go.mod or go.work (src/installer.ts,
  // parseGoVersionFile): a version from .tool-versions is named in the step itself.
  const version: DeclaredVersion | undefined = v
    ? { tool: 'go', version: v, source: toolchain ? 'go.mod (toolchain line)' : 'go.mod (go line)', file: 'go.mod' }
    : has('go.mod')
      ? fromToolVersions(files, has, 'go', ['golang', 'go'], false)
      : undefined;
  return version ? { version, cache: has('go.sum') } : undefined;
}

function rustSetup(files: RootFiles): ToolchainSetup['rust'] {
  let version: DeclaredVersion | undefined;
  const toml = files.read('rust-toolchain.toml');
  const channel = toml ? /^\s*channel\s*=\s*["']([^"']+)["']/m.exec(toml)?.[1] : undefined;
  if (channel) version = { tool: 'rust', version: channel.trim(), source: 'rust-toolchain.toml (channel)', file: 'rust-toolchain.toml' };
  else {
    // The old form: the channel alone, or TOML with a [toolchain] table.
    const plain = files.read('rust-toolchain');
    const inToml = plain ? /^\s*channel\s*=\s*["']([^"']+)["']/m.exec(plain)?.[1] : undefined;
    const v = inToml ?? (plain && !/[[=]/.test(plain) ? firstLine(plain) : undefined);
    if (v) version = { tool: 'rust', version: v, source: 'rust-toolchain', file: 'rust-toolchain' };
  }
  if (!version || !/^[\w.-]+$/.test(version.version)) return undefined;
  return { version };
}

/** What the repository's root files ask for; empty when they name no toolchain version and no pnpm or yarn. */
export function toolchainSetup(files: RootFiles): ToolchainSetup {
  const names = new Set(files.names);
  const has = (n: string) => names.has(n);
  const out: ToolchainSetup = {};
  const node = nodeSetup(files, has);
  // npm alone, with no version asked for, needs nothing the runner lacks (its cache is left to the person).
  if (node && (node.version || node.packageManager || (node.cache && node.cache.manager !== 'npm'))) out.node = node;
  const python = pythonSetup(files, has);
  if (python) out.python = python;
  const go = goSetup(files, has);
  if (go) out.go = go;
  const rust = rustSetup(files);
  if (rust) out.rust = rust;
  return out;
}

/** Every version the files declare, in a fixed order. */
export function declaredVersions(setup: ToolchainSetup): DeclaredVersion[] {
  return [setup.node?.version, setup.python?.version, setup.go?.version, setup.rust?.version].filter((v): v is DeclaredVersion => v !== undefined);
}

/**
 * The toolchains a setup action's steps set up: `uses: actions/setup-node@…` (and setup-python,
 * setup-go, a Rust toolchain action), or a `run:` that installs one with its own manager (nvm,
 * pyenv, uv python, rustup). A reading of the text, not of YAML: a commented line counts for nothing.
 */
export function toolchainsSetUp(actionYml: string): Set<Toolchain> {
  const live = actionYml
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n');
  const out = new Set<Toolchain>();
  const rules: Array<[Toolchain, RegExp]> = [
    ['node', /uses:\s*['"]?actions\/setup-node@|\b(nvm|fnm|volta)\s+(install|use)\b/],
    ['python', /uses:\s*['"]?(actions\/setup-python|astral-sh\/setup-uv)@|\bpyenv\s+(install|local|global)\b|\buv\s+python\s+install\b/],
    ['go', /uses:\s*['"]?actions\/setup-go@/],
    ['rust', /uses:\s*['"]?(dtolnay\/rust-toolchain|actions-rust-lang\/setup-rust-toolchain)@|\brustup\s+(toolchain\s+install|install|default|override)\b/],
  ];
  for (const [tool, rule] of rules) if (rule.test(live)) out.add(tool);
  return out;
}
