/**
 * The direction of crew's layers (docs/ARCHITECTURE.md, "Layout"), checked in CI by
 * `npm run deps`: no cycles; domain/ is pure; steps/ reach IO only through ports.
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
      name: 'steps-use-ports',
      severity: 'error',
      comment: 'Steps reach GitHub, git and the model through the ports (src/ports.ts); only the entry points build adapters.',
      from: { path: '^src/steps/' },
      to: { path: '^src/adapters/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
