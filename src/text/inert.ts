/**
 * Model-written text made inert before crew posts it on GitHub: it can still be read, but it
 * cannot notify anyone, make a reader's browser fetch a URL, render markup, or close an issue.
 *
 * - `@user` and `@org/team` become `<code>@user</code>`. GitHub does not mention inside code
 *   (a backtick span renders to the same element); the HTML form also holds inside `<summary>`
 *   and inside a code span this function took for prose, where inserted backticks would break
 *   the span open. Emails (`a@b.com`) stay as they are: GitHub does not mention there either.
 * - `![alt](url)` and `![alt][ref]` lose the `!` and become plain links.
 * - Every `<` outside code becomes `&lt;`, so raw HTML (`<img>`, `<picture>`, `<details>`, comments
 *   that look like crew's markers, autolinks excepted) shows as text. `>` stays, for quotes.
 * - A closing keyword before an issue reference (`fixes #7`, `Closes: o/r#7`, `resolved GH-7`,
 *   an issue URL) gets the word "issue" in between (`fixes issue #7`), which GitHub does not read
 *   as closing, in code too, since it is the raw text GitHub parses for closing references.
 * - Character references that spell these (`&#64;`, `&num;`, letters) are decoded first.
 *
 * Code is left alone where GitHub certainly renders it as code: a fence that opens at column 0
 * and closes, and backtick spans, when every backtick run in the paragraph pairs up within its
 * line and table cell. Anything less certain is treated as prose: that can only show a `&lt;` or
 * a `<code>` inside real code, never let a mention or an image through. A fence that never closes
 * is escaped, so it cannot swallow what crew writes after the model's text.
 *
 * Pure and idempotent: `inert(inert(x)) === inert(x)`. Apply it to the model's text before crew
 * wraps it in its own markup (`details`, tables, markers), which must keep working.
 * `within: 'html'` is for text inside crew's HTML (a `<summary>`), where markdown code does not exist.
 */
export function inert(text: string, within: 'markdown' | 'html' = 'markdown'): string {
  const segments = within === 'html' ? [{ code: false, text }] : segmentsOf(text);
  return neutraliseClosing(segments.map((s) => (s.code ? s.text : prose(s.text))).join(''));
}

interface Segment {
  code: boolean;
  text: string;
}

const OPENER = /^(`{3,}|~{3,})([^\r]*)\r?$/;
const BLANK = /^[ \t]*\r?$/;

/** Closed top-level fences are code; the lines between them go through `paragraphs`. */
function segmentsOf(text: string): Segment[] {
  const lines = text.split('\n');
  const blocks: Segment[][] = [];
  let prose: string[] = [];
  const flush = () => {
    if (prose.length) blocks.push(paragraphs(prose));
    prose = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = OPENER.exec(line);
    // A backtick fence's info string cannot hold a backtick (CommonMark 4.5): then it is inline code.
    if (!open || (open[1]![0] === '`' && open[2]!.includes('`'))) {
      prose.push(line);
      continue;
    }
    const fenceChar = open[1]![0]!;
    const closer = new RegExp(`^ {0,3}\\${fenceChar}{${open[1]!.length},}[ \\t]*\\r?$`);
    const end = lines.findIndex((l, j) => j > i && closer.test(l));
    if (end < 0) {
      prose.push(`\\${line}`);
      continue;
    }
    flush();
    blocks.push([{ code: true, text: lines.slice(i, end + 1).join('\n') }]);
    i = end;
  }
  flush();
  return blocks.flatMap((b, i) => (i ? [{ code: false, text: '\n' }, ...b] : b));
}

/**
 * Prose lines, in paragraphs split at blank lines. A paragraph's backtick spans count as code
 * only if every run pairs up inside its own line and table cell (split at every `|`, as GitHub
 * splits a table row before it looks for code); otherwise the whole paragraph is prose.
 */
function paragraphs(lines: string[]): Segment[] {
  const out: Segment[] = [];
  const push = (s: Segment) => {
    const last = out.at(-1);
    if (last && last.code === s.code) last.text += s.text;
    else out.push(s);
  };
  for (let i = 0; i < lines.length;) {
    if (i) push({ code: false, text: '\n' });
    if (BLANK.test(lines[i]!)) {
      push({ code: false, text: lines[i++]! });
      continue;
    }
    let j = i;
    while (j < lines.length && !BLANK.test(lines[j]!)) j++;
    const para = lines.slice(i, j);
    const spans = para.map((l) => l.split('|').map(codeSpans));
    if (spans.some((cells) => cells.some((c) => c === null))) push({ code: false, text: para.join('\n') });
    else {
      para.forEach((line, li) => {
        if (li) push({ code: false, text: '\n' });
        line.split('|').forEach((cell, ci) => {
          if (ci) push({ code: false, text: '|' });
          let at = 0;
          for (const [from, to] of spans[li]![ci]!) {
            push({ code: false, text: cell.slice(at, from) });
            push({ code: true, text: cell.slice(from, to) });
            at = to;
          }
          push({ code: false, text: cell.slice(at) });
        });
      });
    }
    i = j;
  }
  return out;
}

const PUNCT = /[!-/:-@[-`{-~]/;

/** The code spans of one line or cell as [start, end) pairs, or null when a backtick run has no partner. */
function codeSpans(s: string): Array<[number, number]> | null {
  const spans: Array<[number, number]> = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === '\\' && i + 1 < s.length && PUNCT.test(s[i + 1]!)) {
      i += 2;
      continue;
    }
    if (s[i] !== '`') {
      i++;
      continue;
    }
    const n = runAt(s, i);
    let j = i + n;
    let close = -1;
    while (j < s.length) {
      if (s[j] !== '`') {
        j++;
        continue;
      }
      const m = runAt(s, j);
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close < 0) return null;
    spans.push([i, close + n]);
    i = close + n;
  }
  return spans;
}

function runAt(s: string, i: number): number {
  let j = i;
  while (s[j] === '`') j++;
  return j - i;
}

/** What crew leaves as it is in prose: its own inert mentions (so a second pass changes nothing) and URL autolinks. */
const KEPT = /<code>@[A-Za-z0-9][\w.\/@-]*<\/code>|<(?:https?|mailto):[^\s<>`]*>/g;
const MENTION = /(?<![A-Za-z0-9_])@[A-Za-z0-9][\w.\/@-]*/g;

function prose(text: string): string {
  const decoded = decodeSpelled(text);
  let out = '';
  let at = 0;
  for (const m of decoded.matchAll(KEPT)) {
    out += proseBetween(decoded.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + proseBetween(decoded.slice(at));
}

function proseBetween(text: string): string {
  let t = text.replace(/</g, '&lt;');
  // A `!` right before `[` (not itself escaped) makes an image; a run of them too, once one is gone.
  for (let before = ''; before !== t;) {
    before = t;
    t = t.replace(/(?<!\\)((?:\\\\)*)!+(?=\[)/g, '$1');
  }
  return t.replace(MENTION, (m) => {
    const name = m.replace(/\.+$/, '');
    return `<code>${name}</code>${m.slice(name.length)}`;
  });
}

const NAMED: Record<string, string> = { commat: '@', num: '#', sol: '/', colon: ':', period: '.', lowbar: '_' };

/** Character references that spell a mention or a reference (`&#64;`, `&num;7`, `&#70;ixes`), decoded until none is left. */
function decodeSpelled(text: string): string {
  const one = (s: string) =>
    s.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]+));/g, (m, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name !== undefined) return NAMED[name] ?? m;
      const c = String.fromCodePoint(Math.min(Number.parseInt(dec ?? hex!, dec ? 10 : 16), 0x10ffff));
      return /^[A-Za-z0-9@#/:._-]$/.test(c) ? c : m;
    });
  let before = '';
  let t = text;
  while (t !== before) {
    before = t;
    t = one(t);
  }
  return t;
}

/**
 * The references GitHub closes an issue by, after a closing keyword (its documentation, "Linking a
 * pull request to an issue using a keyword"): `#7`, `owner/repo#7`, an issue or pull URL (also as
 * an autolink or a link), and `GH-7`, which GitHub links like `#7`. A colon, emphasis or a code
 * mark may stand between.
 */
const CLOSING = new RegExp(
  String.raw`(?<![A-Za-z0-9])(close[sd]?|fix(?:e[sd])?|resolve[sd]?)(?![A-Za-z0-9])([*_~\x60]*\s*:?[*_~\x60]*\s*)` +
    String.raw`(?=(?:&lt;|<)?(?:#\d|GH-\d|[\w.-]+\/[\w.-]+#\d|https?:\/\/[^\s)>\]]+\/(?:issues|pull)\/\d|\[\s*\x60*\s*(?:#|GH-)\d|\[[^\]\n]*\]\([^)\s]*\/(?:issues|pull)\/\d))`,
  'gi',
);

function neutraliseClosing(text: string): string {
  return text.replace(CLOSING, (_m, word: string, between: string) => `${word}${between}${/\s$/.test(between) ? '' : ' '}issue `);
}

/** A mention in plain text that is not already in a code span or part of an email address. */
const GIT_MENTION = /(?<![A-Za-z0-9_`])@[A-Za-z0-9][\w.\/@-]*/g;

/**
 * Text crew writes into git (commit and merge messages) or into a pull request's title, which GitHub
 * copies into the merge commit: plain text, not markdown, so only what acts on its own is changed.
 * A closing keyword before a reference gets "issue" in between, as in `inert` (a commit that reaches
 * the default branch closes the issues its message names that way, like a pull request's body), and
 * a mention goes into backticks. Idempotent.
 */
export function inertGit(text: string): string {
  return neutraliseClosing(
    text.replace(GIT_MENTION, (m) => {
      const name = m.replace(/\.+$/, '');
      return `\`${name}\`${m.slice(name.length)}`;
    }),
  );
}

/**
 * JSON that crew stores in git and reads back (an attempt's Crew-Result trailer): the same value,
 * written with `@`, `#` and `/` as escapes and the H of `GH-` too, so no mention, issue reference,
 * URL or closing reference appears in the message while `JSON.parse` reads exactly what was written.
 * None of these characters occurs in JSON outside a string, nor inside an escape.
 */
export function inertJson(json: string): string {
  return json
    .replace(/[@#/]/g, (c) => (c === '/' ? '\\/' : `\\u00${c.charCodeAt(0).toString(16)}`))
    .replace(/(g)(h)(?=-\d)/gi, (_m, g: string, h: string) => `${g}\\u00${h.charCodeAt(0).toString(16)}`);
}
