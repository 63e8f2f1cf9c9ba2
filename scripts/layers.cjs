/**
 * crew's layers, bottom to top (docs/ARCHITECTURE.md, "Layout"): each names the layers it may import, and
 * only layers above it name it, so the folder graph has no cycle and no arrow that runs up. Read by
 * .dependency-cruiser.cjs (`npm run deps`, an allow-list: an import no layer allows fails) and by
 * tests/unit/layers.test.ts (the table's own order, and every file of src/ in exactly one layer).
 * Packages and node's own modules are not layers; domain/ may not reach node's IO modules.
 */
const LAYERS = [
  { name: 'text', path: '^src/text/', may: [], what: 'sanitize, redact, inert, markdown: words in and out' },
  { name: 'domain', path: '^src/domain/', may: ['text'], what: 'pure rules and types' },
  { name: 'ports', path: '^src/(ports|clock|version)[.]ts$', may: ['domain', 'text'], what: 'the interfaces the logic sees, the clock, the version' },
  { name: 'config', path: '^src/config/', may: ['domain', 'text'], what: '.github/crew.yml and the workflow files read' },
  { name: 'render', path: '^src/render/', may: ['domain', 'text'], what: 'pure rendering for a Surface' },
  { name: 'sandbox', path: '^src/sandbox/', may: ['domain', 'text'], what: 'where model-written commands run' },
  { name: 'state', path: '^src/state/', may: ['ports', 'domain', 'text'], what: "the run's files on crew/state" },
  { name: 'trajectory', path: '^src/trajectory/', may: ['ports', 'domain', 'render', 'text'], what: 'recording agent runs' },
  { name: 'adapters', path: '^src/adapters/', may: ['ports', 'domain', 'sandbox', 'text'], what: 'the ports over GitHub, git, the model and the machine' },
  { name: 'inputs', path: '^src/(settings|event|templates)[.]ts$', may: ['domain', 'text'], what: "a job's inputs, event and prompt templates" },
  { name: 'agents', path: '^src/agents/', may: ['ports', 'config', 'domain', 'sandbox', 'state', 'text'], what: 'model-driven parts' },
  {
    name: 'toolbox',
    path: '^src/toolbox/',
    may: ['ports', 'agents', 'config', 'domain', 'sandbox', 'text'],
    what: "what a job's steps and eval both use: the sandbox, its egress, commands and tests (#53)",
  },
  { name: 'mcp', path: '^src/mcp/', may: ['ports', 'agents', 'domain', 'sandbox', 'text'], what: "the repository's MCP servers as agent tools" },
  { name: 'doctor', path: '^src/doctor/', may: ['ports', 'config', 'domain', 'text'], what: 'crew doctor: facts and their words' },
  { name: 'init', path: '^src/init/', may: ['domain', 'text'], what: 'crew init' },
  {
    name: 'steps',
    path: '^src/steps/',
    may: ['ports', 'inputs', 'agents', 'config', 'doctor', 'domain', 'mcp', 'render', 'sandbox', 'state', 'text', 'toolbox', 'trajectory'],
    what: 'one file per workflow job',
  },
  {
    name: 'local',
    path: '^src/local/',
    may: ['ports', 'inputs', 'config', 'domain', 'render', 'sandbox', 'state', 'steps', 'text', 'toolbox', 'trajectory'],
    what: "local mode's engine over the ports",
  },
  {
    name: 'eval',
    path: '^src/eval/',
    may: ['ports', 'inputs', 'agents', 'config', 'domain', 'sandbox', 'text', 'toolbox', 'trajectory'],
    what: 'crew eval',
  },
  {
    name: 'action',
    path: '^src/(index|main|bundle|end-after-step|default-branch|job-cancellation|zod-jitless)[.]ts$',
    may: ['ports', 'inputs', 'adapters', 'config', 'domain', 'sandbox', 'state', 'steps', 'text', 'trajectory'],
    what: "the Action's entry: builds the adapters, runs one step",
  },
  {
    name: 'cli',
    path: '^src/cli/',
    may: ['ports', 'inputs', 'adapters', 'config', 'doctor', 'domain', 'eval', 'init', 'local', 'render', 'sandbox', 'state', 'text', 'trajectory'],
    what: 'the crew command: arguments, exit codes, one module per command, the composition',
  },
];

/** node's modules that reach outside the process (files, processes, network, the terminal): none in domain/. */
const IO_MODULES = [
  'fs',
  'fs/promises',
  'child_process',
  'net',
  'http',
  'https',
  'http2',
  'dns',
  'dgram',
  'tls',
  'os',
  'readline',
  'worker_threads',
  'cluster',
];

module.exports = { LAYERS, IO_MODULES };
