import type { DeclaredVersion, ToolchainSetup } from '../domain/toolchain-setup';

/**
 * The text of `.github/actions/crew-setup/action.yml` for what the repository's files declare: a
 * composite action with one step per toolchain (pinned by major version, as crew's own workflows
 * pin actions/checkout and actions/setup-node), the package manager's cache, and a commented place
 * for services. `toolchainSetup` (src/domain/toolchain-setup.ts) decides what; this only writes it.
 */

const q = (s: string) => JSON.stringify(s);

/** The `with:` line that gives the action the version: the file it reads it from, else the version itself. */
const versionInput = (tool: 'node' | 'python' | 'go', v: DeclaredVersion) =>
  v.file ? `        ${tool}-version-file: ${v.file}` : `        ${tool}-version: ${q(v.version)}`;

/** One line per thing set up, as `crew init` says it: "Node 18 (.nvmrc)". */
export function setupSummary(setup: ToolchainSetup): string[] {
  const from = (v: DeclaredVersion | undefined, name: string) => (v ? `${name} ${v.version} (${v.source})` : undefined);
  const node = setup.node;
  return [
    from(node?.version, 'Node'),
    node?.packageManager ? `${node.packageManager.name} ${node.packageManager.version} through corepack (package.json packageManager)` : undefined,
    node?.cache ? `${node.cache.manager}'s download cache, keyed by ${node.cache.lockfile}` : undefined,
    from(setup.python?.version, 'Python'),
    setup.python?.pipCache ? `pip's download cache, keyed by ${setup.python.pipCache.join(', ')}` : undefined,
    from(setup.go?.version, 'Go'),
    setup.go?.cache ? "Go's module and build cache, keyed by go.sum" : undefined,
    from(setup.rust?.version, 'Rust'),
  ].filter((l): l is string => l !== undefined);
}

function nodeSteps(node: NonNullable<ToolchainSetup['node']>): string[] {
  const version = node.version ? [versionInput('node', node.version)] : [];
  const name = node.version ? `Node ${node.version.version} (${node.version.source})` : "Node's download cache";
  const corepack = node.packageManager ?? (node.cache && node.cache.manager !== 'npm' ? { name: node.cache.manager, version: '' } : undefined);
  if (!corepack)
    return [
      `    - name: ${q(name)}`,
      '      uses: actions/setup-node@v4',
      '      with:',
      ...version,
      ...(node.cache ? [`        cache: ${node.cache.manager}`, `        cache-dependency-path: ${node.cache.lockfile}`] : []),
    ];
  // setup-node's cache asks pnpm or yarn where its store is, and corepack needs node first: node, then
  // corepack, then setup-node again for the cache alone (actions/setup-node#531).
  return [
    ...(node.version ? [`    - name: ${q(name)}`, '      uses: actions/setup-node@v4', '      with:', ...version] : []),
    `    - name: ${q(`${corepack.name}${corepack.version ? ` ${corepack.version}` : ''} through corepack (${node.packageManager ? 'package.json packageManager' : node.cache!.lockfile})`)}`,
    '      shell: bash',
    '      run: corepack enable',
    ...(node.cache
      ? [
          `    - name: ${q(`${node.cache.manager}'s store cached between runs, keyed by ${node.cache.lockfile}`)}`,
          '      uses: actions/setup-node@v4',
          '      with:',
          `        cache: ${node.cache.manager}`,
          `        cache-dependency-path: ${node.cache.lockfile}`,
        ]
      : []),
  ];
}

function pythonSteps(python: NonNullable<ToolchainSetup['python']>): string[] {
  return [
    `    - name: ${q(`Python ${python.version.version} (${python.version.source})`)}`,
    '      uses: actions/setup-python@v5',
    '      with:',
    versionInput('python', python.version),
    ...(python.pipCache ? ['        cache: pip', '        cache-dependency-path: |', ...python.pipCache.map((f) => `          ${f}`)] : []),
  ];
}

function goSteps(go: NonNullable<ToolchainSetup['go']>): string[] {
  return [
    `    - name: ${q(`Go ${go.version.version} (${go.version.source})`)}`,
    '      uses: actions/setup-go@v5',
    '      with:',
    versionInput('go', go.version),
    // setup-go caches by default, keyed by go.sum; without one there is nothing to key it on.
    `        cache: ${go.cache}`,
  ];
}

function rustSteps(rust: NonNullable<ToolchainSetup['rust']>): string[] {
  return [
    `    - name: ${q(`Rust ${rust.version.version} (${rust.version.source})`)}`,
    '      shell: bash',
    // The runner's rustup; in the checkout, the file makes this toolchain the one cargo uses.
    `      run: rustup toolchain install ${rust.version.version} --profile minimal`,
  ];
}

const SERVICES = [
  '    # Services your tests need start here, and export their address for the steps after and for',
  '    # crew (a line NAME=value appended to $GITHUB_ENV). For example PostgreSQL:',
  '    # - name: PostgreSQL for the tests',
  '    #   shell: bash',
  '    #   run: |',
  '    #     docker run -d --name crew-postgres -p 5432:5432 -e POSTGRES_PASSWORD=postgres postgres:16',
  '    #     until docker exec crew-postgres pg_isready -U postgres; do sleep 1; done',
  '    #     echo "DATABASE_URL=postgres://postgres:postgres@localhost:5432/postgres" >> "$GITHUB_ENV"',
];

/** The action.yml `crew init` writes (only when `setup` holds something: a composite action needs a step). */
export function setupActionYml(setup: ToolchainSetup): string {
  const steps = [
    ...(setup.node ? nodeSteps(setup.node) : []),
    ...(setup.python ? pythonSteps(setup.python) : []),
    ...(setup.go ? goSteps(setup.go) : []),
    ...(setup.rust ? rustSteps(setup.rust) : []),
  ];
  return [
    `# Your repository's own setup steps: crew's workflow runs them before crew in every job that runs`,
    `# your code (each task's work job and the critic), in both workflow forms. They are read from the`,
    `# default branch and run on the commit a run starts from, before any model-written code exists: as`,
    `# trusted as your CI. crew init wrote it from the versions your files declare; edit it freely`,
    `# (docs/workflow.md). crew's \`setup:\` commands (.github/crew.yml) still install the dependencies.`,
    `name: crew setup`,
    `description: Toolchains, caches and services crew's jobs need, before crew runs`,
    `runs:`,
    `  using: composite`,
    `  steps:`,
    ...steps,
    ...SERVICES,
    '',
  ].join('\n');
}
