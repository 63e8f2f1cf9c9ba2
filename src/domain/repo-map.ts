/**
 * The repository map the planning agents and the workers read (#48): every top-level folder with
 * its file count, then the files ranked by relevance to the request, each with its definitions, in
 * a character budget, and a note of what was left out. Ranked as Aider's repo map ranks (the idea,
 * not its code): a graph of files, an edge from each file to the files that define identifiers it
 * uses, PageRank personalised towards what the request names; identifiers the request names, and
 * long, distinctive ones, weigh more (aider/repomap.py, get_ranked_tags: a named identifier ×10, a
 * snake/camel/kebab name of 8+ characters ×10, a `_private` one ×0.1, one defined in more than 5
 * files ×0.1, the square root of the number of references). Definitions come from line-based
 * patterns per language (no parser; definitions.ts, shared with read_file's outline): good enough to
 * name the functions, classes and types a file offers. Pure: a step reads the files through the
 * WorkingCopy port.
 */
import { definitionIn, definitionLanguage, type DefinitionLanguage } from './definitions';

export interface Definition {
  name: string;
  /** 1-based. */
  line: number;
  /** The defining line, trimmed and cut. */
  text: string;
}

export interface RepoMapInput {
  /** Every tracked path. */
  files: readonly string[];
  /** The text of the files that were read (a subset: see `filesToRead`). */
  contents: ReadonlyMap<string, string>;
  /** What the map is for: the request or the task. Paths, module names and identifiers in it rank their files first. */
  focus: string;
  /** The map's size in characters, header and note included. */
  budgetChars: number;
}

/** Source files of languages the map has no definition patterns for: still code, ranked above docs and assets. */
const OTHER_CODE = /\.(scala|c|h|cc|cpp|hpp|php|swift|m|mm|sh|bash|lua|ex|exs|erl|hs|ml|clj|dart|r|jl|zig|vue|svelte|sql)$/i;
const MANIFESTS =
  /(^|\/)(package\.json|Makefile|makefile|GNUmakefile|pyproject\.toml|setup\.py|setup\.cfg|Cargo\.toml|go\.mod|tsconfig\.json|Dockerfile|justfile|Rakefile|Gemfile|pom\.xml|build\.gradle)$/;
const DOCS = /\.(md|mdx|rst|txt|adoc)$/i;
const CONFIG = /\.(json|ya?ml|toml|ini|cfg|xml)$/i;

function extension(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/** The code language the map reads a file's definitions in (Markdown's headings are an outline's, not the map's). */
function languageOf(path: string): DefinitionLanguage | undefined {
  const language = definitionLanguage(path);
  return language?.headings ? undefined : language;
}

/** Built, bundled or vendored code: nobody edits it, and its definitions would drown the source's. */
const GENERATED = /(^|\/)(dist|build|out|vendor|third_party|node_modules|__generated__)\/|\.(min|bundle)\.[cm]?js$|\.d\.ts$/;

/** How much a file is worth before its contents are known: code first, then manifests and configuration, docs, the rest (assets, data, built code). */
function prior(path: string): number {
  if (GENERATED.test(path)) return 0.05;
  if (languageOf(path) || OTHER_CODE.test(path)) return isTest(path) ? 0.6 : 1;
  if (MANIFESTS.test(path)) return 0.8;
  if (CONFIG.test(path)) return 0.3;
  if (DOCS.test(path)) return 0.2;
  return 0.05;
}

function isTest(path: string): boolean {
  return /(^|\/)(tests?|__tests__|spec)\/|[._-](test|spec)\.[a-z]+$|(^|\/)test_[^/]*\.py$|_test\.go$/.test(path);
}

const LINE_CHARS = 120;

/** The definitions a file's text holds, by its language's patterns; none for a language the map does not know. */
export function definitionsOf(path: string, text: string): Definition[] {
  const lang = languageOf(path);
  if (!lang) return [];
  const out: Definition[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length > 1000) continue;
    const name = definitionIn(lang, line)?.name;
    if (!name) continue;
    const t = line.trim();
    out.push({ name, line: i + 1, text: t.length > LINE_CHARS ? `${t.slice(0, LINE_CHARS - 1)}…` : t });
  }
  return out;
}

const IDENT = /[A-Za-z_$][\w$]*/g;

/** An identifier that says something: snake_case, camelCase or kebab of 8+ characters (Aider's rule). */
function distinctive(name: string): boolean {
  return name.length >= 8 && (/_/.test(name.slice(1)) || /[a-z][A-Z]/.test(name) || /-/.test(name));
}

export interface Mentions {
  /** Tracked files the focus names: by path, a path's tail, a module name or a bare file name. */
  paths: Set<string>;
  /** Words of the focus, for matching against defined names. */
  words: Set<string>;
  /** Of those, the ones written as code: in backticks, or snake_case, camelCase, CONSTANT_CASE or with digits. */
  code: Set<string>;
  /** Files whose name without its extension is a word of the focus ("the critic" → critic.ts): likely, not named. */
  stems: Set<string>;
}

/** A word that reads as an identifier rather than prose. */
function codeShaped(w: string): boolean {
  return /_/.test(w) || /[a-z][A-Z]/.test(w) || /^[A-Z][A-Z0-9_]{2,}$/.test(w) || /[A-Za-z]\d/.test(w);
}

/** What the focus text names: tracked paths (whole, by their tail, as a dotted module, or without an extension) and words. */
export function mentionsIn(focus: string, files: readonly string[]): Mentions {
  const paths = new Set<string>();
  const tokens = new Set((focus.match(/[A-Za-z0-9_$][\w$./-]*[\w$]/g) ?? []).map((t) => t.replace(/^\.?\/+/, '')));
  const byBase = new Map<string, string[]>();
  const byStem = new Map<string, string[]>();
  for (const f of files) {
    const base = f.slice(f.lastIndexOf('/') + 1);
    (byBase.get(base) ?? byBase.set(base, []).get(base)!).push(f);
    const stem = f.slice(0, f.length - extension(f).length);
    (byStem.get(stem) ?? byStem.set(stem, []).get(stem)!).push(f);
    const init = stem.match(/^(.*)\/(?:__init__|index|mod)$/)?.[1];
    if (init) (byStem.get(init) ?? byStem.set(init, []).get(init)!).push(f);
  }
  const fileSet = new Set(files);
  for (const t of tokens) {
    if (fileSet.has(t)) paths.add(t);
    if (t.includes('/')) {
      // A path's tail ("core/expr.py"), or a path without its extension ("src/text/slug").
      for (const f of files) if (f.endsWith(`/${t}`)) paths.add(f);
      for (const f of byStem.get(t) ?? []) paths.add(f);
    } else if (/\.[A-Za-z]/.test(t)) {
      const named = byBase.get(t);
      // A bare name that many files share ("index.ts") names none of them in particular.
      if (named && named.length <= 3) for (const f of named) paths.add(f);
      // A dotted module name ("sympy.core.expr").
      if (/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/.test(t)) for (const f of byStem.get(t.replace(/\./g, '/')) ?? []) paths.add(f);
    }
  }
  const words = new Set<string>();
  const code = new Set<string>();
  for (const w of focus.match(IDENT) ?? []) if (w.length >= 3) words.add(w);
  for (const w of words) if (codeShaped(w)) code.add(w);
  for (const quoted of focus.match(/`[^`\n]{1,200}`/g) ?? []) for (const w of quoted.match(IDENT) ?? []) if (w.length >= 3) code.add(w);
  const stems = new Set<string>();
  const lower = new Set([...words].filter((w) => w.length >= 4).map((w) => w.toLowerCase()));
  for (const f of files) {
    const base = f.slice(f.lastIndexOf('/') + 1);
    if (lower.has(base.slice(0, base.length - extension(base).length).toLowerCase())) stems.add(f);
  }
  return { paths, words, code, stems };
}

/**
 * Which files to read for the map, at most `limit`: the files the focus names, then code in the
 * languages the map reads, taken in turn from each top-level folder (shallow files first), so a
 * folder of thousands does not crowd out the rest.
 */
export function filesToRead(files: readonly string[], focus: string, limit: number): string[] {
  const named = [...mentionsIn(focus, files).paths].filter((f) => languageOf(f));
  const byFolder = new Map<string, string[]>();
  for (const f of files) {
    if (!languageOf(f) || GENERATED.test(f)) continue;
    const top = topFolder(f);
    (byFolder.get(top) ?? byFolder.set(top, []).get(top)!).push(f);
  }
  const queues = [...byFolder.values()].map((q) => q.sort((a, b) => depth(a) - depth(b) || (isTest(a) ? 1 : 0) - (isTest(b) ? 1 : 0) || a.localeCompare(b)));
  const out = new Set(named.slice(0, limit));
  for (let i = 0; out.size < limit && queues.some((q) => i < q.length); i++) for (const q of queues) if (i < q.length && out.size < limit) out.add(q[i]!);
  return [...out];
}

function depth(path: string): number {
  return path.split('/').length;
}

/** The top-level folder of a path, or '' for a file at the root. */
function topFolder(path: string): string {
  const i = path.indexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

interface Ranked {
  path: string;
  score: number;
  named: boolean;
  defs: Definition[];
}

/** PageRank over weighted edges, personalised by `start` (Aider ranks its graph the same way). */
function pageRank(nodes: string[], edges: Map<string, Map<string, number>>, start: Map<string, number>): Map<string, number> {
  const damping = 0.85;
  const total = [...start.values()].reduce((a, b) => a + b, 0) || 1;
  const p = new Map(nodes.map((n) => [n, (start.get(n) ?? 0) / total]));
  let rank = new Map(p);
  for (let iter = 0; iter < 30; iter++) {
    const next = new Map(nodes.map((n) => [n, (1 - damping) * p.get(n)!]));
    let dangling = 0;
    for (const n of nodes) {
      const out = edges.get(n);
      const sum = out ? [...out.values()].reduce((a, b) => a + b, 0) : 0;
      if (!sum) {
        dangling += rank.get(n)!;
        continue;
      }
      for (const [to, w] of out!) next.set(to, next.get(to)! + (damping * rank.get(n)! * w) / sum);
    }
    for (const n of nodes) next.set(n, next.get(n)! + damping * dangling * p.get(n)!);
    rank = next;
  }
  return rank;
}

/** Every file with its score, best first, and the definitions worth showing (most referenced first). */
export function rankFiles(input: Omit<RepoMapInput, 'budgetChars'>): Ranked[] {
  const { files, contents } = input;
  const mentions = mentionsIn(input.focus, files);
  const defs = new Map<string, Definition[]>();
  const definers = new Map<string, Set<string>>();
  for (const [path, text] of contents) {
    const d = definitionsOf(path, text);
    defs.set(path, d);
    for (const x of d) (definers.get(x.name) ?? definers.set(x.name, new Set()).get(x.name)!).add(path);
  }
  // Words of the request that name a definition weigh more (Aider's ×10); only those written as code name its file.
  const namedIdents = new Set([...mentions.words].filter((w) => definers.has(w) && w.length >= 4));
  const codeIdents = new Set([...mentions.code].filter((w) => definers.has(w)));
  // Edges: a file that uses a name points at the files defining it, weighted as Aider weighs them.
  const edges = new Map<string, Map<string, number>>();
  const used = new Map<string, number>();
  const uses = new Map<string, Map<string, number>>();
  const spread = new Map<string, number>();
  for (const [path, text] of contents) {
    const counts = new Map<string, number>();
    // Short names (`s`, `k`, `id`) are everywhere as locals: a use of one says nothing about where it is defined.
    for (const w of text.match(IDENT) ?? []) if (w.length >= 4 && definers.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
    uses.set(path, counts);
    for (const name of counts.keys()) spread.set(name, (spread.get(name) ?? 0) + 1);
  }
  // A plain word most files use (`number`, `text`, `input`) is a keyword or a local's name far more often than a use of one definition.
  const common = Math.max(5, contents.size / 5);
  for (const [path, counts] of uses) {
    for (const [name, n] of counts) {
      const where = definers.get(name)!;
      const others = [...where].filter((d) => d !== path);
      if (!others.length) continue;
      let mul = 1;
      if (namedIdents.has(name)) mul *= 10;
      if (distinctive(name)) mul *= 10;
      if (name.startsWith('_')) mul *= 0.1;
      if (where.size > 5) mul *= 0.1;
      if (spread.get(name)! > common && !distinctive(name)) mul *= 0.05;
      const w = mul * Math.sqrt(n);
      const out = edges.get(path) ?? edges.set(path, new Map()).get(path)!;
      for (const d of others) {
        out.set(d, (out.get(d) ?? 0) + w / others.length);
        used.set(`${d}\0${name}`, (used.get(`${d}\0${name}`) ?? 0) + w / others.length);
      }
    }
  }
  const start = new Map<string, number>();
  for (const f of files) start.set(f, prior(f) * (mentions.paths.has(f) ? 100 : mentions.stems.has(f) ? 10 : 1));
  for (const [path, d] of defs) {
    if (d.some((x) => codeIdents.has(x.name))) start.set(path, (start.get(path) ?? 0) * 30);
    else if (d.some((x) => namedIdents.has(x.name))) start.set(path, (start.get(path) ?? 0) * 3);
  }
  const rank = pageRank([...files], edges, start);
  const ranked = files.map((path) => {
    const d = defs.get(path) ?? [];
    const named = mentions.paths.has(path) || d.some((x) => codeIdents.has(x.name));
    // The definitions the request names first, then the ones the rest of the code uses most, then the rest in file order.
    const weight = (x: Definition) => (codeIdents.has(x.name) ? 2e9 : namedIdents.has(x.name) ? 1e9 : 0) + (used.get(`${path}\0${x.name}`) ?? 0);
    const order = [...d].sort((a, b) => weight(b) - weight(a) || a.line - b.line);
    // Of files alike, the shallower first (a root README before a template deep in .github).
    const shallow = 1 / (1 + 0.05 * (depth(path) - 1));
    return { path, score: (rank.get(path) ?? 0) * prior(path) * shallow + (named ? 1 : 0), named, defs: order };
  });
  return ranked.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
}

/**
 * Definitions shown for the file at `rank` (0 the first): the best few files show the most, then
 * fewer, then the path alone, so a map names a hundred files rather than detailing a dozen. The map
 * is a guide; read_file shows the rest.
 */
function defsShown(rank: number): number {
  return rank < 5 ? 10 : rank < 15 ? 4 : rank < 40 ? 1 : 0;
}

const defLine = (d: Definition) => `  ${d.line}│ ${d.text}`;

/** Top-level folders named one by one; past this many, the largest are and the rest counted. */
const FOLDERS_NAMED = 60;

/** The rendered map: folders, ranked files with their definitions, what was left out; within `budgetChars`. */
export function repositoryMap(input: RepoMapInput): string {
  const { files, budgetChars } = input;
  const folders = new Map<string, number>();
  for (const f of files) folders.set(topFolder(f), (folders.get(topFolder(f)) ?? 0) + 1);
  const rootFiles = folders.get('') ?? 0;
  folders.delete('');
  const named = [...folders].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, FOLDERS_NAMED);
  const unnamed = folders.size - named.length;
  const folderLine = [
    ...named.sort((a, b) => a[0].localeCompare(b[0])).map(([d, n]) => `${d}/ (${n})`),
    ...(unnamed ? [`${unnamed} smaller folders`] : []),
    ...(rootFiles ? [`${rootFiles} at the root`] : []),
  ].join(', ');
  const head = [
    '## Repository map',
    `${files.length} tracked files. Every top-level folder, with its file count: ${folderLine || '(none)'}.`,
    files.length
      ? 'The files most relevant to this work come first (the ones it names, then the ones the code uses most), each with the line numbers and lines of its main definitions:'
      : '(empty repository)',
    '',
  ];
  const ranked = rankFiles(input);
  const body: string[] = [];
  let size = head.join('\n').length;
  // Room kept for the closing note, which names what was left out.
  const reserve = 400;
  let shown = 0;
  const left = new Map<string, number>();
  let full = false;
  for (const r of ranked) {
    const most = defsShown(shown);
    if (!full) {
      const mark = r.named ? '   (named in the request)' : '';
      let entrySize = r.path.length + mark.length + 1;
      if (size + entrySize + reserve <= budgetChars) {
        // A file goes in with as many of its definitions as fit (most used first), shown in file order.
        const kept: Definition[] = [];
        for (const d of r.defs.slice(0, most)) {
          const line = defLine(d);
          if (size + entrySize + line.length + 1 + reserve > budgetChars) break;
          kept.push(d);
          entrySize += line.length + 1;
        }
        const entry = [`${r.path}${mark}`, ...kept.sort((a, b) => a.line - b.line).map(defLine)];
        if (kept.length && r.defs.length > kept.length) entry.push(`  … ${r.defs.length - kept.length} more definitions`);
        body.push(...entry);
        size += entry.join('\n').length + 1;
        shown++;
        continue;
      }
      full = true;
    }
    const top = topFolder(r.path) || '(root)';
    left.set(top, (left.get(top) ?? 0) + 1);
  }
  const omitted = files.length - shown;
  const note = omitted
    ? [
        '',
        `Left out to keep the map short: ${omitted} more files (${[...left]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([d, n]) => `${n} in ${d === '(root)' ? 'the root' : `${d}/`}`)
          .join(', ')}${left.size > 8 ? ', …' : ''}). list_files, search and read_file show them.`,
      ]
    : [];
  return [...head, ...body, ...note].join('\n');
}
