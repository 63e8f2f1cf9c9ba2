import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { init } from '../../../src/init/index';
import { toolchainSetup, toolchainsSetUp } from '../../../src/domain/toolchain-setup';
import { PROJECT_ROOT } from '../../support/scenario/run-scenario';
import { clones } from './clone';

/** `crew init` writing .github/actions/crew-setup/action.yml from the versions a repository's files declare (#51). */
const ACTION = '.github/actions/crew-setup/action.yml';
const clone = clones();

async function initYes(dir: string) {
  const said: string[] = [];
  const { written } = await init({ dir, form: 'short', yes: true, say: (t) => said.push(t), githubRepo: 'acme/widgets' });
  return { written, said: said.join('\n') };
}

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  with?: Record<string, unknown>;
}
async function writtenAction(dir: string): Promise<{ text: string; steps: Step[] }> {
  const text = await readFile(join(dir, ACTION), 'utf8');
  const meta = parse(text) as { name: string; runs: { using: string; steps: Step[] } };
  expect(meta.name).toBeTruthy();
  expect(meta.runs.using).toBe('composite');
  // A composite action's run steps must each name their shell (GitHub refuses the action otherwise).
  for (const s of meta.runs.steps) if (s.run) expect(s.shell).toBe('bash');
  return { text, steps: meta.runs.steps };
}

describe('crew init writes the setup steps from the toolchain files', () => {
  it('.nvmrc + pnpm through packageManager: node from .nvmrc, corepack, then pnpm’s cache keyed by the lockfile', async () => {
    const dir = await clone({
      '.nvmrc': '18\n',
      'package.json': JSON.stringify({ name: 'w', packageManager: 'pnpm@9.1.0+sha512.abc', scripts: { test: 'vitest' } }),
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
    });
    const { written, said } = await initYes(dir);
    expect(written).toContain(ACTION);
    const { steps } = await writtenAction(dir);
    expect(steps.map((s) => s.uses ?? s.run)).toEqual(['actions/setup-node@v4', 'corepack enable', 'actions/setup-node@v4']);
    expect(steps[0]).toMatchObject({ name: 'Node 18 (.nvmrc)', with: { 'node-version-file': '.nvmrc' } });
    expect(steps[1]!.name).toBe('pnpm 9.1.0 through corepack (package.json packageManager)');
    expect(steps[2]!.with).toEqual({ cache: 'pnpm', 'cache-dependency-path': 'pnpm-lock.yaml' });
    // What it wrote and why, in its output.
    expect(said).toContain(
      `Setup steps (${ACTION}), because your files declare them and the runner's own may differ: Node 18 (.nvmrc); pnpm 9.1.0 through corepack (package.json packageManager); pnpm's download cache, keyed by pnpm-lock.yaml.`,
    );
    expect(said).toContain(`Wrote ${ACTION}.`);
    expect(said).toContain(`git add .github/workflows/crew.yml .github/crew.yml ${ACTION}`);
  });

  it('.python-version + pyproject: setup-python from .python-version, pip’s cache keyed by the requirements and pyproject', async () => {
    const dir = await clone({
      '.python-version': '3.12\n',
      'pyproject.toml': '[project]\nname = "w"\nrequires-python = ">=3.10"\ndependencies = ["requests"]\n',
      'requirements-dev.txt': 'pytest\n',
    });
    await initYes(dir);
    const { steps } = await writtenAction(dir);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({
      name: 'Python 3.12 (.python-version)',
      uses: 'actions/setup-python@v5',
      with: { 'python-version-file': '.python-version', cache: 'pip', 'cache-dependency-path': 'requirements-dev.txt\npyproject.toml\n' },
    });
    // Without .python-version, pyproject's requires-python is the version (setup-python reads it there).
    const only = await clone({
      'pyproject.toml': '[project]\nname = "w"\nrequires-python = ">=3.10"\ndependencies = [\n  "requests",\n]\n\n[tool.x]\nrequires-python = "2.7"\n',
    });
    await initYes(only);
    expect((await writtenAction(only)).steps[0]).toMatchObject({
      name: 'Python >=3.10 (pyproject.toml (requires-python))',
      with: { 'python-version-file': 'pyproject.toml', cache: 'pip', 'cache-dependency-path': 'pyproject.toml\n' },
    });
    // One that installs nothing gets no pip cache (there would be no folder to save).
    const bare = await clone({ 'pyproject.toml': '[project]\nname = "w"\nrequires-python = ">=3.10"\n' });
    await initYes(bare);
    expect((await writtenAction(bare)).steps[0]!.with).toEqual({ 'python-version-file': 'pyproject.toml' });
  });

  it('go.mod: setup-go from go.mod, its cache on with a go.sum and off without one', async () => {
    const dir = await clone({ 'go.mod': 'module example.com/w\n\ngo 1.22.3\n', 'go.sum': '' });
    await initYes(dir);
    expect((await writtenAction(dir)).steps).toEqual([
      { name: 'Go 1.22.3 (go.mod (go line))', uses: 'actions/setup-go@v5', with: { 'go-version-file': 'go.mod', cache: true } },
    ]);
    const bare = await clone({ 'go.mod': 'module example.com/w\n\ngo 1.21\n\ntoolchain go1.22.5\n' });
    await initYes(bare);
    expect((await writtenAction(bare)).steps).toEqual([
      { name: 'Go 1.22.5 (go.mod (toolchain line))', uses: 'actions/setup-go@v5', with: { 'go-version-file': 'go.mod', cache: false } },
    ]);
  });

  it('several at once, engines.node with npm, rust-toolchain.toml; a commented place for services', async () => {
    const dir = await clone({
      'package.json': JSON.stringify({ name: 'w', engines: { node: '>=20' } }),
      'package-lock.json': '{}',
      'rust-toolchain.toml': '[toolchain]\nchannel = "1.78.0"\ncomponents = ["clippy"]\n',
      'go.mod': 'module m\n\ngo 1.22\n',
    });
    const { said } = await initYes(dir);
    const { text, steps } = await writtenAction(dir);
    expect(steps).toEqual([
      {
        name: 'Node >=20 (package.json (engines.node))',
        uses: 'actions/setup-node@v4',
        with: { 'node-version-file': 'package.json', cache: 'npm', 'cache-dependency-path': 'package-lock.json' },
      },
      { name: 'Go 1.22 (go.mod (go line))', uses: 'actions/setup-go@v5', with: { 'go-version-file': 'go.mod', cache: false } },
      { name: 'Rust 1.78.0 (rust-toolchain.toml (channel))', shell: 'bash', run: 'rustup toolchain install 1.78.0 --profile minimal' },
    ]);
    expect(said).toContain('Rust 1.78.0 (rust-toolchain.toml (channel))');
    // The services block is there, commented: a docker run that exports its address through GITHUB_ENV.
    expect(text).toMatch(/^ {4}# {5}docker run -d --name crew-postgres .*postgres:16$/m);
    expect(text).toMatch(/^ {4}# {5}echo "DATABASE_URL=postgres:\/\/.*" >> "\$GITHUB_ENV"$/m);
  });

  it('writes no setup steps when no file declares a version or pnpm/yarn; says so', async () => {
    const dir = await clone({ 'package.json': JSON.stringify({ name: 'w', scripts: { test: 'node --test' } }), 'package-lock.json': '{}' });
    const { written, said } = await initYes(dir);
    expect(written).toEqual(['.github/workflows/crew.yml', '.github/crew.yml']);
    expect(said).toContain('Setup steps: none proposed (no .nvmrc');
    expect(existsSync(join(dir, '.github/actions'))).toBe(false);
  });

  it('never replaces an action.yml that is there, even when asked; says so and shows what it would have written', async () => {
    const mine = 'name: mine\nruns:\n  using: composite\n  steps:\n    - run: ./start-db.sh\n      shell: bash\n';
    const dir = await clone({ '.nvmrc': '20\n', 'package.json': '{}', [ACTION]: mine });
    const said: string[] = [];
    const asked: string[] = [];
    const { written } = await init({
      dir,
      form: 'short',
      yes: false,
      ask: async (q) => (asked.push(q), true),
      say: (t) => said.push(t),
    });
    expect(written).not.toContain(ACTION);
    expect(asked.some((q) => q.includes(ACTION))).toBe(false);
    expect(await readFile(join(dir, ACTION), 'utf8')).toBe(mine);
    expect(said.join('\n')).toMatch(
      /Kept your \.github\/actions\/crew-setup\/action\.yml: crew init never replaces the setup steps .*It would have written:\n {4}# Your repository's own setup steps/,
    );
  });

  it('writes no setup steps through a symbolic link the clone planted', async () => {
    const outside = await clone({ 'keep.txt': 'x\n' });
    const dir = await clone({ '.nvmrc': '20\n', 'package.json': '{}' });
    await mkdir(join(dir, '.github'), { recursive: true });
    await symlink(outside, join(dir, '.github', 'actions'));
    const { written, said } = await initYes(dir);
    expect(written).not.toContain(ACTION);
    expect(said).toContain(`Not writing ${ACTION}: .github/actions is a symbolic link, and crew init writes no file through one`);
    expect(existsSync(join(outside, 'crew-setup'))).toBe(false);
  });

  it('reads no version through a symbolic link the clone planted (its first line would be written into the action)', async () => {
    const outside = await clone({ id_key: 'SECRET-FIRST-LINE\n' });
    const dir = await clone({ 'package.json': '{}' });
    await symlink(join(outside, 'id_key'), join(dir, '.nvmrc'));
    const { said } = await initYes(dir);
    expect(said).not.toContain('SECRET-FIRST-LINE');
    expect(existsSync(join(dir, ACTION)) ? readFileSync(join(dir, ACTION), 'utf8') : '').not.toContain('SECRET-FIRST-LINE');
  });
});

describe(".tool-versions (asdf) and Poetry's python, when no file more particular to the toolchain names a version", () => {
  const files = (f: Record<string, string>) => ({ names: Object.keys(f), read: (n: string) => f[n] });
  const TOOL_VERSIONS = '# asdf\nnodejs 20.11.0\npython 3.12.1 # the one CI uses\ngolang 1.22.0\n';

  it('.tool-versions alone: setup-node and setup-python read it; setup-go (v5 reads only go.mod or go.work) gets the version itself', async () => {
    const dir = await clone({
      '.tool-versions': TOOL_VERSIONS,
      'package.json': JSON.stringify({ name: 'w', scripts: { test: 'node --test' } }),
      'requirements.txt': 'requests\n',
      'go.mod': 'module example.com/w\n',
    });
    const { said } = await initYes(dir);
    expect((await writtenAction(dir)).steps).toEqual([
      { name: 'Node 20.11.0 (.tool-versions (nodejs))', uses: 'actions/setup-node@v4', with: { 'node-version-file': '.tool-versions' } },
      {
        // `python 3.12.1 # the one CI uses`: setup-python v5 reads no version from a line with a comment after it
        // (src/utils.ts, getVersionInputFromToolVersions), so the step names the version itself.
        name: 'Python 3.12.1 (.tool-versions (python))',
        uses: 'actions/setup-python@v5',
        with: { 'python-version': '3.12.1', cache: 'pip', 'cache-dependency-path': 'requirements.txt\n' },
      },
      { name: 'Go 1.22.0 (.tool-versions (golang))', uses: 'actions/setup-go@v5', with: { 'go-version': '1.22.0', cache: false } },
    ]);
    expect(said).toContain('Node 20.11.0 (.tool-versions (nodejs))');
  });

  it('the more particular files win: .nvmrc, .node-version and package.json for node; .python-version and pyproject.toml for python; go.mod for go', () => {
    const setup = (more: Record<string, string>) => toolchainSetup(files({ '.tool-versions': TOOL_VERSIONS, ...more }));
    const pkg = (extra: object) => JSON.stringify({ name: 'w', ...extra });
    expect(setup({ 'package.json': pkg({}), '.nvmrc': '18\n' }).node?.version).toMatchObject({ version: '18', source: '.nvmrc' });
    expect(setup({ 'package.json': pkg({}), '.node-version': '19\n' }).node?.version).toMatchObject({ version: '19', source: '.node-version' });
    expect(setup({ 'package.json': pkg({ engines: { node: '>=18' } }) }).node?.version).toMatchObject({
      version: '>=18',
      source: 'package.json (engines.node)',
    });
    expect(setup({ '.python-version': '3.11\n' }).python?.version).toMatchObject({ version: '3.11', source: '.python-version' });
    expect(setup({ 'pyproject.toml': '[project]\nrequires-python = ">=3.10"\n' }).python?.version).toMatchObject({ version: '>=3.10' });
    const poetry = '[tool.poetry]\nname = "w"\n\n[tool.poetry.dependencies]\npython = "^3.11"\nrequests = "^2.31"\n';
    expect(setup({ 'pyproject.toml': poetry }).python?.version).toMatchObject({ version: '^3.11', source: 'pyproject.toml (tool.poetry.dependencies.python)' });
    expect(setup({ 'go.mod': 'module m\n\ngo 1.21\n' }).go?.version).toMatchObject({ version: '1.21', source: 'go.mod (go line)' });
    // A line that names no version number gives none: `system`, `latest`, an expression.
    const odd = (line: string) => toolchainSetup(files({ '.tool-versions': line, 'go.mod': 'module m\n' })).go;
    expect([odd('golang system\n'), odd('golang latest\n'), odd('golang ${{github.token}}\n')]).toEqual([undefined, undefined, undefined]);
    expect(odd('golang 1.22.0 1.21.0\n')?.version.version).toBe('1.22.0');
    // No package.json or go.mod: not a Node or Go project, whatever .tool-versions lists.
    // Its python line has a comment after it, which setup-python does not read: the step names the version.
    expect(setup({})).toEqual({ python: { version: { tool: 'python', version: '3.12.1', source: '.tool-versions (python)' } } });
  });

  it('.tool-versions is the version file only for a line the action reads: the tool and one version, no fallback or comment after it', () => {
    const version = (text: string) => {
      const s = toolchainSetup(files({ '.tool-versions': text, 'package.json': '{"name":"w"}' }));
      return [s.node?.version, s.python?.version].map((v) => (v ? `${v.version} ${v.file ?? '(named in the step)'}` : undefined));
    };
    expect(version('nodejs 20.11.0\npython 3.12.1\n')).toEqual(['20.11.0 .tool-versions', '3.12.1 .tool-versions']);
    expect(version('nodejs 20.11.0 18.19.0\npython 3.12.1 3.11.7\n')).toEqual(['20.11.0 (named in the step)', '3.12.1 (named in the step)']);
    expect(version('nodejs 20.11.0 # LTS\npython 3.12.1\t# CI\n')).toEqual(['20.11.0 (named in the step)', '3.12.1 (named in the step)']);
    expect(version('nodejs 20.11.0\r\n')).toEqual(['20.11.0 (named in the step)', undefined]);
  });

  it("Poetry's python: setup-python reads it from pyproject.toml, or, beside a [project] table (where setup-python looks first), the step names it", async () => {
    const poetry = '[tool.poetry]\nname = "w"\n\n[tool.poetry.dependencies]\npython = "^3.11"\nrequests = "^2.31"\n';
    const dir = await clone({ 'pyproject.toml': poetry, 'poetry.lock': '# lock\n' });
    await initYes(dir);
    expect((await writtenAction(dir)).steps).toEqual([
      {
        name: 'Python ^3.11 (pyproject.toml (tool.poetry.dependencies.python))',
        uses: 'actions/setup-python@v5',
        with: { 'python-version-file': 'pyproject.toml' },
      },
    ]);
    const both = await clone({ 'pyproject.toml': `[project]\nname = "w"\n\n${poetry}`, 'poetry.lock': '# lock\n' });
    await initYes(both);
    expect((await writtenAction(both)).steps[0]!.with).toEqual({ 'python-version': '^3.11' });
  });
});

describe('what an existing setup action sets up (crew doctor reads it)', () => {
  it('a setup action for each toolchain, or its own installer; a commented line counts for nothing', () => {
    expect([...toolchainsSetUp('steps:\n  - uses: actions/setup-node@v4\n  - uses: "actions/setup-go@v5"\n')]).toEqual(['node', 'go']);
    expect([...toolchainsSetUp('steps:\n  - run: uv python install 3.12\n  - run: rustup toolchain install stable\n')]).toEqual(['python', 'rust']);
    expect([...toolchainsSetUp('steps:\n  # - uses: actions/setup-python@v5\n  - run: echo hi\n')]).toEqual([]);
  });

  it('reads no version from what is not one', () => {
    const files = (f: Record<string, string>) => ({ names: Object.keys(f), read: (n: string) => f[n] });
    expect(toolchainSetup(files({ 'package.json': 'not json', '.nvmrc': '\n# nothing\n' }))).toEqual({});
    expect(toolchainSetup(files({ 'rust-toolchain': 'stable; rm -rf /\n' }))).toEqual({});
    expect(toolchainSetup(files({ 'rust-toolchain': 'nightly-2024-05-01\n' })).rust?.version.version).toBe('nightly-2024-05-01');
    // package.json in setup-node's order: volta.node, then devEngines.runtime, then engines.node; .nvmrc before any.
    const pkg = { engines: { node: '>=18' }, devEngines: { runtime: [{ name: 'bun' }, { name: 'node', version: '^22' }] } };
    expect(toolchainSetup(files({ 'package.json': JSON.stringify(pkg) })).node?.version).toMatchObject({
      version: '^22',
      source: 'package.json (devEngines.runtime)',
    });
    const volta = { ...pkg, volta: { node: '20.11.1' } };
    expect(toolchainSetup(files({ 'package.json': JSON.stringify(volta) })).node?.version).toMatchObject({
      version: '20.11.1',
      source: 'package.json (volta.node)',
    });
    expect(toolchainSetup(files({ 'package.json': JSON.stringify(volta), '.node-version': 'v21\n' })).node?.version).toMatchObject({
      version: 'v21',
      file: '.node-version',
    });
    expect(toolchainSetup(files({ 'package.json': JSON.stringify({ packageManager: 'yarn@4.2.2' }), 'yarn.lock': '' })).node).toEqual({
      packageManager: { name: 'yarn', version: '4.2.2' },
      cache: { manager: 'yarn', lockfile: 'yarn.lock' },
    });
  });
});

describe('the docs show the setup steps in about a dozen lines', () => {
  const block = (doc: string) => {
    const text = readFileSync(join(PROJECT_ROOT, 'docs', doc), 'utf8');
    const m = /```yaml\n(name: crew setup\n[\s\S]*?)```/.exec(text);
    expect(m, `${doc} shows a setup action`).toBeTruthy();
    return { text, yaml: m![1]! };
  };
  const shape = (steps: Step[]) => steps.map(({ uses, run, shell, with: w }) => ({ uses, run, shell, with: w }));

  it.each(['install.md', 'workflow.md'])('%s: a composite action of 15 lines or fewer, run steps with their shell, actions pinned by major', (doc) => {
    const { text, yaml } = block(doc);
    expect(yaml.trimEnd().split('\n').length).toBeLessThanOrEqual(15);
    const steps = (parse(yaml) as { runs: { using: string; steps: Step[] } }).runs.steps;
    expect((parse(yaml) as { runs: { using: string } }).runs.using).toBe('composite');
    for (const s of steps) {
      if (s.run) expect(s.shell).toBe('bash');
      if (s.uses) expect(s.uses).toMatch(/^actions\/setup-(node|python|go)@v\d+$/);
    }
    // What crew runs them on, and why that is safe.
    expect(text).toMatch(/before\s+any\s+model-written\s+code\s+exists[\s\S]{0,40}as\s+trusted\s+as\s+your\s+CI/);
  });

  it('install.md’s is what crew init writes for .nvmrc and pnpm, less its names and comments', async () => {
    const dir = await clone({
      '.nvmrc': '20\n',
      'package.json': JSON.stringify({ name: 'w', packageManager: 'pnpm@9.1.0' }),
      'pnpm-lock.yaml': '',
    });
    await initYes(dir);
    const doc = (parse(block('install.md').yaml) as { runs: { steps: Step[] } }).runs.steps;
    expect(shape(doc)).toEqual(shape((await writtenAction(dir)).steps));
  });
});
