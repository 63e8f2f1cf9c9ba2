/**
 * What `crew init` proposes for a repository from the files at its root: the `setup:` commands that
 * install its dependencies, and the default `criteria:` that tell whether a change still builds and
 * passes its tests. Pure: src/init/ reads the files and asks the person.
 */

export interface RootFiles {
  /** The names at the repository's root (files and folders). */
  names: readonly string[];
  /** A root file's text, or undefined when it is not there (or too big to matter). */
  read(name: string): string | undefined;
}

export interface StackProposal {
  /** What was found, as a person says it: "npm (package-lock.json)". */
  found: string[];
  setup: string[];
  /** Commands that exit 0 when the work is done (`criteria:` in .github/crew.yml takes commands). */
  criteria: string[];
}

/** `npm init`'s placeholder test script, which always fails. */
const PLACEHOLDER_TEST = /no test specified/;

/** package.json as an object; empty when it is missing, not JSON or not an object. */
export function packageJson(files: RootFiles): Record<string, unknown> {
  try {
    const pkg = JSON.parse(files.read('package.json') ?? '{}') as unknown;
    return pkg && typeof pkg === 'object' && !Array.isArray(pkg) ? (pkg as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** package.json's scripts, name → command; none when it is missing or not JSON. */
export function packageScripts(files: RootFiles): Record<string, string> {
  const scripts = packageJson(files).scripts;
  if (!scripts || typeof scripts !== 'object') return {};
  return Object.fromEntries(Object.entries(scripts).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function node(files: RootFiles, has: (n: string) => boolean, out: StackProposal): void {
  if (!has('package.json')) return;
  const scripts = packageScripts(files);
  // The lockfile says which package manager the project uses; each installs exactly what it pins.
  const [tool, found, install] = has('pnpm-lock.yaml')
    ? ['pnpm', 'pnpm (pnpm-lock.yaml)', ['corepack enable', 'pnpm install --frozen-lockfile']]
    : has('yarn.lock')
      ? ['yarn', 'Yarn (yarn.lock)', ['corepack enable', has('.yarnrc.yml') ? 'yarn install --immutable' : 'yarn install --frozen-lockfile']]
      : has('bun.lock') || has('bun.lockb')
        ? ['bun', 'Bun (bun.lock)', ['bun install --frozen-lockfile']]
        : has('package-lock.json') || has('npm-shrinkwrap.json')
          ? ['npm', 'npm (package-lock.json)', ['npm ci']]
          : ['npm', 'npm (package.json, no lockfile)', ['npm install']];
  out.found.push(found);
  out.setup.push(...install);
  const run = (script: string) =>
    tool === 'npm' ? (script === 'test' ? 'npm test' : `npm run ${script}`) : `${tool} ${script === 'test' ? 'test' : `run ${script}`}`;
  if (scripts.test && !PLACEHOLDER_TEST.test(scripts.test)) out.criteria.push(run('test'));
  if (scripts.lint) out.criteria.push(run('lint'));
  if (scripts.typecheck) out.criteria.push(run('typecheck'));
}

/** A requirement line that installs something (not a comment, blank line or pip option alone). */
const requirementLines = (text: string | undefined) => (text ?? '').split('\n').filter((l) => /^\s*[A-Za-z0-9_.[\]-]/.test(l) && !/^\s*#/.test(l));

function python(files: RootFiles, has: (n: string) => boolean, out: StackProposal): void {
  const requirements = files.names.filter((n) => /^requirements.*\.txt$/.test(n)).sort();
  const pyproject = files.read('pyproject.toml');
  if (!has('pyproject.toml') && !requirements.length && !has('setup.py')) return;
  const mentions = [pyproject ?? '', ...requirements.map((r) => files.read(r) ?? '')].join('\n');
  const usesPytest = /\bpytest\b/.test(mentions) || has('conftest.py') || has('pytest.ini');
  const test = usesPytest ? 'pytest' : 'unittest discover';
  if (has('uv.lock')) {
    out.found.push('Python with uv (uv.lock)');
    out.setup.push('uv sync --frozen');
    out.criteria.push(`uv run python -m ${test}`);
    return;
  }
  if (has('poetry.lock')) {
    out.found.push('Python with Poetry (poetry.lock)');
    out.setup.push('poetry install --no-interaction');
    out.criteria.push(`poetry run python -m ${test}`);
    return;
  }
  // A project that installs nothing needs no environment: the runner's python3 runs its tests.
  const declaresDependencies =
    usesPytest ||
    requirements.some((r) => requirementLines(files.read(r)).length > 0) ||
    /^\s*dependencies\s*=\s*\[\s*["']/m.test(pyproject ?? '') ||
    has('setup.py');
  out.found.push(`Python (${[...(has('pyproject.toml') ? ['pyproject.toml'] : []), ...(has('setup.py') ? ['setup.py'] : []), ...requirements].join(', ')})`);
  if (!declaresDependencies) {
    out.criteria.push(`python3 -m ${test}`);
    return;
  }
  // A virtual environment: GitHub's Ubuntu runners refuse pip installs into the system Python (PEP 668).
  out.setup.push('python3 -m venv .venv');
  for (const r of requirements) out.setup.push(`.venv/bin/pip install -r ${r}`);
  if (has('pyproject.toml') || has('setup.py')) out.setup.push('.venv/bin/pip install -e .');
  // pytest named only as an optional or dev dependency is not installed by the lines above.
  if (usesPytest && !requirements.some((r) => /^\s*pytest\b/m.test(files.read(r) ?? ''))) out.setup.push('.venv/bin/pip install pytest');
  out.criteria.push(`.venv/bin/python -m ${test}`);
}

/** Every stack found at the root, in a fixed order (a repository may hold more than one). */
export function proposeStack(files: RootFiles): StackProposal {
  const names = new Set(files.names);
  const has = (n: string) => names.has(n);
  const out: StackProposal = { found: [], setup: [], criteria: [] };
  node(files, has, out);
  python(files, has, out);
  if (has('go.mod')) {
    out.found.push('Go (go.mod)');
    out.setup.push('go mod download');
    out.criteria.push('go vet ./...', 'go test ./...');
  }
  if (has('Cargo.toml')) {
    out.found.push('Rust (Cargo.toml)');
    out.setup.push('cargo fetch');
    out.criteria.push('cargo test');
  }
  if (has('Gemfile')) {
    out.found.push(`Ruby (${has('Gemfile.lock') ? 'Gemfile.lock' : 'Gemfile'})`);
    out.setup.push('bundle install');
    if (has('Rakefile')) out.criteria.push('bundle exec rake test');
  }
  if (!out.criteria.length && has('Makefile') && /^test:/m.test(files.read('Makefile') ?? '')) {
    out.found.push('a Makefile with a test target');
    out.criteria.push('make test');
  }
  return out;
}

/** The commented `.github/crew.yml` `crew init` writes: what it found, then setup and criteria, then a few keys people change first. */
export function crewYml(p: StackProposal): string {
  const list = (items: string[]) => (items.length ? items.map((i) => `  - ${JSON.stringify(i)}`).join('\n') : '  []');
  return `# crew's settings for this repository. Every key, with its default: docs/configuration.md
# (or schema/crew.schema.json in crew's repository, which editors can validate against).
# crew init found: ${p.found.length ? p.found.join('; ') : 'no build or test setup it knows'}.

# Commands run before the agents start, with network: as crew's own user on the commit a run
# starts from; inside the sandbox on a tree a model has written.
setup:
${list(p.setup)}

# Done criteria added to every run: commands that must exit 0 (the critic runs them on the
# integrated work).
criteria:
${list(p.criteria)}

# Keys people change first (remove the # to use one):
# max_parallel: 10             # tasks running at once
# require_plan_approval: true  # wait for /crew approve after each plan
# auto_merge: true             # merge crew's pull request once its checks pass and a writer approves
`;
}
