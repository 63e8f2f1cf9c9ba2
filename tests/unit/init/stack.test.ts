import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/schema';
import { crewYml, proposeStack } from '../../../src/domain/stack';

const root = (files: Record<string, string>) => ({ names: Object.keys(files), read: (n: string) => files[n] });
const pkg = (scripts: Record<string, string>) => JSON.stringify({ name: 'x', scripts });

describe('crew init: setup and criteria from the files at the root', () => {
  it('npm: the lockfile → npm ci; a real test script, lint and typecheck → criteria; npm init’s placeholder test is no criterion', () => {
    expect(proposeStack(root({ 'package.json': pkg({ test: 'node --test', lint: 'eslint .' }), 'package-lock.json': '{}' }))).toEqual({
      found: ['npm (package-lock.json)'],
      setup: ['npm ci'],
      criteria: ['npm test', 'npm run lint'],
    });
    const placeholder = proposeStack(root({ 'package.json': pkg({ test: 'echo "Error: no test specified" && exit 1' }), 'package-lock.json': '{}' }));
    expect(placeholder.criteria).toEqual([]);
    expect(proposeStack(root({ 'package.json': pkg({}) })).setup).toEqual(['npm install']);
  });

  it('pnpm and Yarn (classic and Berry) install exactly their lockfile, and run their own scripts', () => {
    expect(proposeStack(root({ 'package.json': pkg({ test: 'vitest run', typecheck: 'tsc' }), 'pnpm-lock.yaml': '' }))).toEqual({
      found: ['pnpm (pnpm-lock.yaml)'],
      setup: ['corepack enable', 'pnpm install --frozen-lockfile'],
      criteria: ['pnpm test', 'pnpm run typecheck'],
    });
    expect(proposeStack(root({ 'package.json': pkg({ test: 'jest' }), 'yarn.lock': '' })).setup).toEqual(['corepack enable', 'yarn install --frozen-lockfile']);
    expect(proposeStack(root({ 'package.json': pkg({ test: 'jest' }), 'yarn.lock': '', '.yarnrc.yml': '' })).setup).toEqual([
      'corepack enable',
      'yarn install --immutable',
    ]);
  });

  it('Python: no dependencies → no setup, the runner’s python3; dependencies → a virtual environment (PEP 668 refuses the system Python)', () => {
    expect(proposeStack(root({ 'pyproject.toml': '[project]\nname = "tally"\n', tests: '' }))).toEqual({
      found: ['Python (pyproject.toml)'],
      setup: [],
      criteria: ['python3 -m unittest discover'],
    });
    expect(proposeStack(root({ 'requirements.txt': 'requests==2.32.3\npytest\n', 'requirements-dev.txt': '# tools\n' }))).toEqual({
      found: ['Python (requirements-dev.txt, requirements.txt)'],
      setup: ['python3 -m venv .venv', '.venv/bin/pip install -r requirements-dev.txt', '.venv/bin/pip install -r requirements.txt'],
      criteria: ['.venv/bin/python -m pytest'],
    });
    // pytest only among the optional dependencies is installed on its own.
    const opt = proposeStack(
      root({ 'pyproject.toml': '[project]\nname = "x"\ndependencies = [\n  "httpx",\n]\n[project.optional-dependencies]\ntest = ["pytest"]\n' }),
    );
    expect(opt.setup).toEqual(['python3 -m venv .venv', '.venv/bin/pip install -e .', '.venv/bin/pip install pytest']);
    expect(proposeStack(root({ 'pyproject.toml': '', 'uv.lock': '', 'conftest.py': '' }))).toMatchObject({
      setup: ['uv sync --frozen'],
      criteria: ['uv run python -m pytest'],
    });
    expect(proposeStack(root({ 'pyproject.toml': '', 'poetry.lock': '' })).setup).toEqual(['poetry install --no-interaction']);
  });

  it('Go, Rust and Ruby; a Makefile’s test target when nothing else gives a criterion; nothing known → nothing proposed', () => {
    expect(proposeStack(root({ 'go.mod': 'module example.com/x\n' }))).toEqual({
      found: ['Go (go.mod)'],
      setup: ['go mod download'],
      criteria: ['go vet ./...', 'go test ./...'],
    });
    expect(proposeStack(root({ 'Cargo.toml': '' }))).toMatchObject({ setup: ['cargo fetch'], criteria: ['cargo test'] });
    expect(proposeStack(root({ Gemfile: '', 'Gemfile.lock': '', Rakefile: '' }))).toMatchObject({
      setup: ['bundle install'],
      criteria: ['bundle exec rake test'],
    });
    expect(proposeStack(root({ Makefile: 'build:\n\tcc x.c\ntest:\n\t./t.sh\n' })).criteria).toEqual(['make test']);
    expect(proposeStack(root({ 'README.md': '# hi\n' }))).toEqual({ found: [], setup: [], criteria: [] });
  });

  it('a repository with two stacks gets both (a Go service with a Node front end)', () => {
    const both = proposeStack(root({ 'go.mod': '', 'package.json': pkg({ test: 'vitest run' }), 'package-lock.json': '' }));
    expect(both.setup).toEqual(['npm ci', 'go mod download']);
    expect(both.criteria).toEqual(['npm test', 'go vet ./...', 'go test ./...']);
  });

  it('the .github/crew.yml it writes is valid configuration holding exactly the proposal, and comments the keys people change first', () => {
    const proposal = proposeStack(root({ 'package.json': pkg({ test: 'node --test' }), 'package-lock.json': '{}' }));
    const text = crewYml(proposal);
    const config = parseConfig(text);
    expect(config.setup).toEqual(['npm ci']);
    expect(config.criteria).toEqual(['npm test']);
    expect(text).toContain('# crew init found: npm (package-lock.json).');
    expect(text).toMatch(/^# require_plan_approval: true/m);
    const empty = parseConfig(crewYml({ found: [], setup: [], criteria: [] }));
    expect(empty.setup).toEqual([]);
    expect(empty.criteria).toEqual([]);
  });
});
