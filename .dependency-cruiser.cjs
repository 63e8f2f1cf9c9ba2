/**
 * The direction of crew's layers (docs/ARCHITECTURE.md, "Layout"), checked in CI by
 * `npm run deps`: no cycles; domain/ is pure; nothing but the two entry points imports an adapter,
 * and adapters import nothing above the ports.
 */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'A cycle makes load order matter and hides which module owns what.', from: {}, to: { circular: true } },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'domain/ holds rules and types; it reads no state, runs no step and talks to no adapter.',
      from: { path: '^src/domain/' },
      to: { path: '^src/(state|steps|adapters|local|agents|render)/' },
    },
    {
      name: 'adapters-only-at-the-entries',
      severity: 'error',
      comment:
        "Logic reaches GitHub, git, the model and the person's machine through the ports (src/ports.ts); only the two entry points build adapters: src/main.ts (the Action) and src/cli/ (the crew command).",
      from: { path: '^src/', pathNot: '^src/(adapters/|main[.]ts$|cli/)' },
      to: { path: '^src/adapters/' },
    },
    {
      name: 'adapters-implement-ports',
      severity: 'error',
      comment: 'An adapter implements a port with domain types; it never calls back into the logic that uses it.',
      from: { path: '^src/adapters/' },
      to: { path: '^src/(steps|agents|local|render|state|sandbox|config)/|^src/(main|settings|event|templates)[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
