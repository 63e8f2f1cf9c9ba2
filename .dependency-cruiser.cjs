/**
 * The direction of crew's layers (docs/ARCHITECTURE.md, "Layout"), checked in CI by `npm run deps`.
 * An allow-list: each layer of scripts/layers.cjs may import itself and the layers it names, all of
 * them below it, and any package or node module; an import no rule allows fails. No module cycles;
 * domain/ reaches none of node's IO modules.
 */
const { LAYERS, IO_MODULES } = require('./scripts/layers.cjs');

const byName = new Map(LAYERS.map((l) => [l.name, l]));

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'A cycle makes load order matter and hides which module owns what.', from: {}, to: { circular: true } },
    {
      name: 'domain-does-no-io',
      severity: 'error',
      comment: 'domain/ holds rules and types: files, processes and the network are reached through the ports.',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core'], path: `^(node:)?(${IO_MODULES.join('|')})$` },
    },
  ],
  allowed: [
    { comment: 'Packages and node modules are not layers.', from: { path: '^src/' }, to: { pathNot: '^src/' } },
    ...LAYERS.map((l) => ({
      comment: `${l.name} (${l.what}) imports ${l.may.length ? `itself, ${l.may.join(', ')}` : 'only itself'}.`,
      from: { path: l.path },
      to: { path: [l.path, ...l.may.map((n) => byName.get(n).path)].join('|') },
    })),
  ],
  allowedSeverity: 'error',
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
