/**
 * The commands a repository already has, from the files at its root: package.json scripts, Makefile
 * targets, pyproject's scripts and tool sections, Cargo and Go. The intake reads them before it
 * writes command criteria (#48), so a criterion runs a script the repository has rather than a guess.
 * Pure: the step reads the root files.
 */
import { packageScripts, proposeStack, type RootFiles } from './stack';

/** The root files this reads (and proposeStack's), so a step knows which to fetch. */
export const SCRIPT_FILES = ['package.json', 'Makefile', 'makefile', 'GNUmakefile', 'pyproject.toml', 'Cargo.toml', 'go.mod', 'setup.py'];

const MAX_ENTRIES = 40;
const COMMAND_CHARS = 160;

const cut = (s: string) => (s.length > COMMAND_CHARS ? `${s.slice(0, COMMAND_CHARS - 1)}…` : s);

function makeTargets(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^([A-Za-z0-9][\w./-]*(?:[ \t]+[A-Za-z0-9][\w./-]*)*)[ \t]*:(?![=:])/gm))
    for (const t of m[1]!.split(/[ \t]+/)) if (!t.includes('%') && !out.includes(t)) out.push(t);
  return out;
}

/** `[section]` headers of a TOML file, and the `key = …` lines directly under the ones `wanted` picks. */
function tomlSections(text: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
    if (header) {
      const name = header[1]!;
      current = sections.get(name) ?? sections.set(name, []).get(name)!;
      continue;
    }
    const key = /^\s*("?[\w.-]+"?)\s*=\s*(.*)$/.exec(line);
    if (key && current) current.push(`${key[1]!.replace(/"/g, '')} = ${key[2]!.trim()}`);
  }
  return sections;
}

/** The repository's scripts as lines for a prompt section; empty when it has none crew recognises. */
export function repositoryScripts(files: RootFiles): string[] {
  const names = new Set(files.names);
  const lines: string[] = [];
  const list = (items: string[]) => [...items.slice(0, MAX_ENTRIES), ...(items.length > MAX_ENTRIES ? [`  … and ${items.length - MAX_ENTRIES} more`] : [])];
  if (names.has('package.json')) {
    const scripts = Object.entries(packageScripts(files));
    lines.push(
      scripts.length ? 'package.json scripts (run with `npm run <name>`, or the package manager below):' : 'package.json (no scripts)',
      ...list(scripts.map(([n, c]) => `  ${n}: ${cut(c)}`)),
    );
  }
  for (const name of ['Makefile', 'makefile', 'GNUmakefile']) {
    const text = files.read(name);
    if (text === undefined) continue;
    const targets = makeTargets(text);
    lines.push(`${name} targets (run with \`make <target>\`): ${targets.length ? list(targets).join(', ') : '(none found)'}`);
  }
  const pyproject = files.read('pyproject.toml');
  if (pyproject !== undefined) {
    const sections = tomlSections(pyproject);
    const scripts = ['project.scripts', 'tool.poetry.scripts', 'tool.poe.tasks', 'tool.pdm.scripts'].flatMap((s) =>
      (sections.get(s) ?? []).map((l) => `  [${s}] ${cut(l)}`),
    );
    const tools = [...sections.keys()].filter((s) => /^tool\.[\w-]+$/.test(s) || /^tool\.[\w-]+\.ini_options$/.test(s)).map((s) => s.split('.')[1]!);
    lines.push(
      `pyproject.toml${tools.length ? `: tool sections for ${[...new Set(tools)].join(', ')}` : ''}${scripts.length ? '; scripts:' : ''}`,
      ...list(scripts),
    );
  }
  const cargo = files.read('Cargo.toml');
  if (cargo !== undefined) {
    const sections = tomlSections(cargo);
    const bins = (sections.get('bin') ?? []).filter((l) => l.startsWith('name ='));
    const members = sections.get('workspace')?.find((l) => l.startsWith('members ='));
    lines.push(
      `Cargo.toml (cargo build, cargo test${bins.length ? `; binaries: ${bins.map((b) => b.slice(7)).join(', ')}` : ''}${members ? `; workspace ${cut(members)}` : ''})`,
    );
  }
  const gomod = files.read('go.mod');
  if (gomod !== undefined) {
    const module = /^module\s+(\S+)/m.exec(gomod)?.[1];
    lines.push(`go.mod${module ? ` (module ${module})` : ''}: go build ./..., go test ./...`);
  }
  const stack = proposeStack(files);
  if (stack.found.length) lines.push(`Tooling found: ${stack.found.join('; ')}`);
  if (stack.criteria.length) lines.push(`Checks that would run from these: ${stack.criteria.map((c) => `\`${c}\``).join(', ')}`);
  return lines;
}
