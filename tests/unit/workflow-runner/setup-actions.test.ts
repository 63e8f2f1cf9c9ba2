import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { needToolchains } from '../../support/toolchains';
import { job, startWorld, workflow, type World } from './helpers';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The jobs of the n-th run (1-based), by name. */
const runJob = (w: World, n: number, name: string) => job(w.runner.runs[n - 1]!, name);

async function dispatchTwice(w: World): Promise<void> {
  await w.dispatch('w.yml');
  await w.settle();
  await w.dispatch('w.yml');
  await w.settle();
}

describe('actions/cache in the offline runner (its action.yml: path, key, restore-keys; output cache-hit; post step saves)', () => {
  const JOB = (key: string, restoreKeys = '', path = 'deps', fail = false) => `  j:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with: { persist-credentials: false }
      - id: cache
        uses: actions/cache@v4
        with:
          path: ${path}
          key: ${key}
          restore-keys: '${restoreKeys}'
      - id: after
        run: |
          echo "hit=\${{ steps.cache.outputs.cache-hit }}" >> "$GITHUB_OUTPUT"
          echo "found=$(cat deps/built 2>/dev/null || echo none)" >> "$GITHUB_OUTPUT"
          mkdir -p deps && echo "built in run $GITHUB_RUN_ID" > deps/built
          ${fail ? 'exit 1' : 'true'}
`;

  it("a run saves the path at the job's end; the next run restores it under the same key (cache-hit true)", async () => {
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(JOB('deps-v1')) } });
    await dispatchTwice(world);
    const [first, second] = [runJob(world, 1, 'j'), runJob(world, 2, 'j')];
    expect(first.steps[2]!.outputs).toEqual({ hit: 'false', found: 'none' });
    expect(first.log.join('\n')).toContain('Cache saved with key: deps-v1');
    expect(second.steps[2]!.outputs).toEqual({ hit: 'true', found: `built in run ${world.runner.runs[0]!.id}` });
    expect(second.log.join('\n')).toContain('Cache hit occurred on the primary key deps-v1, not saving cache.');
    expect(second.standIns).toEqual([{ uses: 'actions/cache', with: { path: 'deps', key: 'deps-v1', 'restore-keys': '' } }]);
  });

  it('a restore key restores the newest entry with its prefix, and cache-hit stays false; a job that failed saves nothing', async () => {
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(JOB('deps-\${{ github.run_id }}', 'deps-')) } });
    await dispatchTwice(world);
    expect(runJob(world, 2, 'j').steps[2]!.outputs).toEqual({ hit: 'false', found: `built in run ${world.runner.runs[0]!.id}` });
    world.runner.cache.events.length = 0;
    await world.close();
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(JOB('deps-v1', '', 'deps', true)) } });
    await world.dispatch('w.yml');
    await world.settle();
    expect(world.runner.cache.events).toEqual([expect.objectContaining({ kind: 'miss', key: 'deps-v1' })]);
  });

  it('an entry saved with other paths is not found (the version is the paths)', async () => {
    const other = JOB('deps-v1', '', '|\n            deps\n            more');
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(JOB('deps-v1')), '.github/workflows/w2.yml': workflow(other) } });
    await world.dispatch('w.yml');
    await world.settle();
    await world.dispatch('w2.yml');
    await world.settle();
    expect(runJob(world, 2, 'j').steps[2]!.outputs).toEqual({ hit: 'false', found: 'none' });
  });
});

describe("actions/setup-node in a repository's composite action (action.yml: node-version-file, cache; outputs node-version, cache-hit)", () => {
  const SETUP = `name: crew-setup
runs:
  using: composite
  steps:
    - id: node
      uses: actions/setup-node@v4
      with: { node-version-file: .nvmrc, cache: npm }
    - shell: bash
      run: |
        echo "node=$(command -v node) \${{ steps.node.outputs.node-version }} \${{ steps.node.outputs.cache-hit }}"
        echo "npm-cache=$(cat ~/.npm/marker 2>/dev/null || echo empty)"
        mkdir -p ~/.npm && echo "from run $GITHUB_RUN_ID" > ~/.npm/marker
`;
  const JOB = `  j:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with: { persist-credentials: false }
      - uses: ./.github/actions/crew-setup
`;

  it("puts this machine's node on PATH from the tool cache, records the version file, and caches ~/.npm by the lockfile between runs", async () => {
    const major = process.versions.node.split('.')[0];
    world = await startWorld({
      files: {
        '.github/workflows/w.yml': workflow(JOB),
        '.github/actions/crew-setup/action.yml': SETUP,
        '.nvmrc': `${major}\n`,
        'package-lock.json': '{"lockfileVersion": 3}\n',
      },
    });
    await dispatchTwice(world);
    const [first, second] = [runJob(world, 1, 'j'), runJob(world, 2, 'j')];
    expect(first.result).toBe('success');
    const firstLog = first.log.join('\n');
    expect(firstLog).toMatch(new RegExp(`node=\\S+/toolcache/node/${process.versions.node}/x64/bin/node v${process.versions.node} false`));
    expect(firstLog).toContain('npm-cache=empty');
    expect(firstLog).toMatch(/Cache saved with key: node-cache-Linux-x64-npm-[0-9a-f]{64}/);
    expect(first.standIns).toEqual([{ uses: 'actions/setup-node', with: { 'node-version-file': '.nvmrc', cache: 'npm' } }]);
    expect(second.log.join('\n')).toContain(`npm-cache=from run ${world.runner.runs[0]!.id}`);
    expect(second.log.join('\n')).toMatch(/ true$/m);
  });

  it('fails as the action does when cache: npm finds no lockfile', async () => {
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(JOB), '.github/actions/crew-setup/action.yml': SETUP, '.nvmrc': '24\n' } });
    await world.dispatch('w.yml');
    await world.settle();
    const j = runJob(world, 1, 'j');
    expect(j.result).toBe('failure');
    expect(j.annotations.map((a) => a.message).join('\n')).toMatch(/Dependencies lock file is not found/);
  });
});

describe("actions/setup-node's version inputs, as src/main.ts (resolveVersionInput) and src/util.ts (getNodeVersionFromFile) read them", () => {
  const JOB = (steps: string) => `  j:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with: { persist-credentials: false }
${steps}      - run: echo "reached the end"
`;

  it('a node-version-file whose text is no version fails the step, as no release matches it; so does a file that is not there', async () => {
    for (const [files, error] of [
      [{ '.nvmrc': 'use the one in CI\n' }, "Unable to find Node version 'use the one in CI' for platform linux and architecture x64."],
      [{ '.nvmrc': 'node20\n' }, "Unable to find Node version 'node20' for platform linux and architecture x64."],
      [{}, /The specified node version file at: \S+\/\.nvmrc does not exist/],
    ] as const) {
      world = await startWorld({
        files: { '.github/workflows/w.yml': workflow(JOB('      - uses: actions/setup-node@v4\n        with: { node-version-file: .nvmrc }\n')), ...files },
      });
      await world.dispatch('w.yml');
      await world.settle();
      const j = runJob(world, 1, 'j');
      await world.close();
      world = undefined;
      expect(j.result).toBe('failure');
      expect(j.annotations.map((a) => a.message).join('\n')).toMatch(error);
      expect(j.log.join('\n')).not.toContain('reached the end');
    }
  });

  it("a package.json with no node version is a warning and the runner's node; node-version wins over the file, said; volta.extends is followed", async () => {
    const major = process.versions.node.split('.')[0];
    world = await startWorld({
      files: {
        '.github/workflows/w.yml': workflow(
          JOB(`      - uses: actions/setup-node@v4
        with: { node-version-file: package.json }
      - uses: actions/setup-node@v4
        with: { node-version: '${major}', node-version-file: .nvmrc }
      - uses: actions/setup-node@v4
        with: { node-version-file: app/package.json }
`),
        ),
        'package.json': '{"name": "w", "engines": {"npm": ">=10"}}\n',
        '.nvmrc': 'not a version\n',
        'app/package.json': '{"name": "app", "volta": {"extends": "../base.json"}}\n',
        'base.json': `{"volta": {"node": "${major}.1.0"}}\n`,
      },
    });
    await world.dispatch('w.yml');
    await world.settle();
    const j = runJob(world, 1, 'j');
    expect(j.result).toBe('success');
    const log = j.log.join('\n');
    expect(log).toMatch(/Could not determine node version from \S+\/package\.json\. Falling back/);
    expect(log).toContain('Resolved package.json as ');
    expect(log).toContain('Both node-version and node-version-file inputs are specified, only node-version will be used');
    expect(log).toMatch(/Resolving node version from \S+\/base\.json/);
    expect(log).toContain(`Resolved app/package.json as ${major}.1.0`);
    expect(log).toContain('reached the end');
  });
});

describe("actions/setup-go (v5) in a repository's composite action (action.yml: go-version-file, cache default true; outputs go-version, cache-hit)", () => {
  const SETUP = (withs: string) => `name: crew-setup
runs:
  using: composite
  steps:
    - id: go
      uses: actions/setup-go@v5
      with: ${withs}
    - shell: bash
      run: |
        echo "go=$(command -v go) \${{ steps.go.outputs.go-version }} hit=\${{ steps.go.outputs.cache-hit }} $(go env GOVERSION)"
        case ":$PATH:" in *":$(go env GOPATH)/bin:"*) echo "gopath-bin on PATH";; esac
        mod=$(go env GOMODCACHE)
        echo "mod-cache=$(cat "$mod/marker" 2>/dev/null || echo empty)"
        mkdir -p "$mod" && echo "from run $GITHUB_RUN_ID" > "$mod/marker"
`;
  const JOB = `  j:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with: { persist-credentials: false }
      - uses: ./.github/actions/crew-setup
`;
  const machineGo = () => execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim().replace(/^go/, '');

  it("puts this machine's go on PATH from the tool cache, records go.mod's version, and caches the module and build caches by go.sum between runs", async (ctx) => {
    await needToolchains(ctx, 'go');
    const have = machineGo();
    const goLine = have.split('.').slice(0, 2).join('.');
    world = await startWorld({
      files: {
        '.github/workflows/w.yml': workflow(JOB),
        '.github/actions/crew-setup/action.yml': SETUP('{ go-version-file: go.mod }'),
        'go.mod': `module example.com/m\n\ngo ${goLine}\n`,
        'go.sum': 'example.com/x v1.0.0 h1:abc=\n',
      },
    });
    await dispatchTwice(world);
    const [first, second] = [runJob(world, 1, 'j'), runJob(world, 2, 'j')];
    expect(first.result).toBe('success');
    const firstLog = first.log.join('\n');
    expect(firstLog).toMatch(new RegExp(`go=\\S+/toolcache/go/${have}/x64/bin/go ${have} hit=false go${have}`));
    expect(firstLog).toContain('mod-cache=empty');
    expect(firstLog).toContain('gopath-bin on PATH');
    expect(firstLog).toMatch(new RegExp(`Cache saved with key: setup-go-Linux-x64-ubuntu24-go-${have}-[0-9a-f]{64}`));
    expect(firstLog).not.toContain('the offline runner has go');
    expect(first.standIns).toEqual([{ uses: 'actions/setup-go', with: { 'go-version-file': 'go.mod' } }]);
    expect(second.log.join('\n')).toContain(`mod-cache=from run ${world.runner.runs[0]!.id}`);
    expect(second.log.join('\n')).toContain('hit=true');
  });

  it('without go.sum the cache is a warning, not a failure, and nothing is saved; cache: false caches nothing; another version is said', async (ctx) => {
    await needToolchains(ctx, 'go');
    world = await startWorld({
      files: {
        '.github/workflows/w.yml': workflow(JOB),
        '.github/actions/crew-setup/action.yml': SETUP('{ go-version-file: go.mod }'),
        'go.mod': 'module example.com/m\n\ngo 1.4\n',
      },
    });
    await world.dispatch('w.yml');
    await world.settle();
    const j = runJob(world, 1, 'j');
    expect(j.result).toBe('success');
    expect(j.log.join('\n')).toContain('Restore cache failed: Dependencies file is not found in');
    expect(j.log.join('\n')).toContain(`the offline runner has go ${machineGo()} only; this step asked for 1.4`);
    expect(world.runner.cache.events).toEqual([]);
    await world.close();
    world = await startWorld({
      files: {
        '.github/workflows/w.yml': workflow(JOB),
        '.github/actions/crew-setup/action.yml': SETUP("{ go-version: '1.4', cache: false }"),
        'go.sum': '',
      },
    });
    await world.dispatch('w.yml');
    await world.settle();
    expect(runJob(world, 1, 'j').result).toBe('success');
    expect(world.runner.cache.events).toEqual([]);
  });

  it('a cache-dependency-path that names no file there is the warning of hashFiles finding none (src/cache-restore.ts), and nothing is saved', async (ctx) => {
    await needToolchains(ctx, 'go');
    world = await startWorld({
      files: {
        '.github/workflows/w.yml': workflow(JOB),
        '.github/actions/crew-setup/action.yml': SETUP('{ go-version-file: go.mod, cache-dependency-path: sub/go.sum }'),
        'go.mod': 'module example.com/m\n\ngo 1.19\n',
        'go.sum': '',
      },
    });
    await world.dispatch('w.yml');
    await world.settle();
    const j = runJob(world, 1, 'j');
    expect(j.result).toBe('success');
    expect(j.log.join('\n')).toContain('Restore cache failed: Some specified paths were not resolved, unable to cache dependencies.');
    expect(world.runner.cache.events).toEqual([]);
  });
});

describe('the version files setup-python (v5) and setup-node (v4) read: pyproject.toml, Poetry, .tool-versions', () => {
  const SETUP = `name: crew-setup
runs:
  using: composite
  steps:
    - id: toml
      uses: actions/setup-python@v5
      with: { python-version-file: pyproject.toml }
    - id: asdf
      uses: actions/setup-python@v5
      with: { python-version-file: .tool-versions }
    - id: node
      uses: actions/setup-node@v4
      with: { node-version-file: .tool-versions }
    - shell: bash
      run: echo "versions \${{ steps.toml.outputs.python-version }} \${{ steps.asdf.outputs.python-version }}"
`;
  const JOB = `  j:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with: { persist-credentials: false }
      - uses: ./.github/actions/crew-setup
`;

  it("a .tool-versions python line with a comment after it gives setup-python no version: said, and the runner's python used", async (ctx) => {
    await needToolchains(ctx, 'python3');
    world = await startWorld({
      files: {
        '.github/workflows/w.yml': workflow(JOB),
        '.github/actions/crew-setup/action.yml': `name: crew-setup\nruns:\n  using: composite\n  steps:\n    - uses: actions/setup-python@v5\n      with: { python-version-file: .tool-versions }\n`,
        '.tool-versions': 'python 3.12.1 # the one CI uses\n',
      },
    });
    await world.dispatch('w.yml');
    await world.settle();
    const j = runJob(world, 1, 'j');
    expect(j.result).toBe('success');
    expect(j.log.join('\n')).toContain('No Python version found in .tool-versions');
    expect(j.log.join('\n')).toContain('The `python-version` input is not set.  The version of Python currently in `PATH` will be used.');
  });

  it("Poetry's python without a [project] table, requires-python with one; .tool-versions' python and nodejs lines, comments skipped", async (ctx) => {
    await needToolchains(ctx, 'python3');
    const toolVersions = '# python 2.7\ngolang 1.22.0\nnodejs 1.2.3\npython 3.12.1\n';
    const play = async (pyproject: string) => {
      world = await startWorld({
        files: {
          '.github/workflows/w.yml': workflow(JOB),
          '.github/actions/crew-setup/action.yml': SETUP,
          'pyproject.toml': pyproject,
          '.tool-versions': toolVersions,
        },
      });
      await world.dispatch('w.yml');
      await world.settle();
      const j = runJob(world, 1, 'j');
      await world.close();
      world = undefined;
      expect(j.result).toBe('success');
      return j.log.join('\n');
    };
    const poetry = await play('[tool.poetry]\nname = "w"\n\n[tool.poetry.dependencies]\npython = "^3.11"\n');
    expect(poetry).toContain('versions ^3.11 3.12.1');
    expect(poetry).toContain(`the offline runner has node ${process.versions.node} only; this step asked for 1.2.3`);
    expect(await play('[project]\nname = "w"\nrequires-python = ">=3.10"\n\n[tool.poetry.dependencies]\npython = "^3.11"\n')).toContain(
      'versions >=3.10 3.12.1',
    );
  });
});
