/**
 * Cleans untrusted text (issue bodies, comments, answers) before it reaches a prompt.
 *
 * The rule: the model sees no more than a person reading the rendered issue on GitHub.
 * What a reader cannot see is removed, because hidden content is the usual carrier of
 * injected instructions: HTML comments and other markup that renders as nothing, elements
 * marked hidden, attribute values, image alt text, link titles, link reference
 * definitions, zero-width, bidi, tag and other invisible characters, and entities that
 * spell them. Where GitHub's rendering is ambiguous, crew removes: hiding visible text
 * from the model is safe, showing it hidden text is not. Fenced code blocks are shown
 * literally by GitHub, so inside them only invisible characters are removed (and hidden
 * elements and comments, which are removed everywhere, since a block that looks fenced
 * may sit inside raw HTML).
 */

const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]/g;
/** Unicode tag characters and the variation-selector supplement: both can smuggle whole texts inside one visible glyph. */
const ASTRAL_INVISIBLE = /[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u{1D173}-\u{1D17A}]/gu;
const LINE_SEPARATORS = /[\u2028\u2029]/g;

/** Elements whose content a browser never shows (or GitHub's sanitiser drops). */
const NOT_RENDERED = ['script', 'style', 'template', 'noscript', 'iframe', 'object', 'frameset', 'head', 'title', 'svg', 'math', 'xmp'];
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** An HTML tag with its attributes; written so that no input can make it backtrack badly. */
const ATTRS = String.raw`(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>\x60]+))?)*\s*`;
const OPEN_TAG = new RegExp(String.raw`<([A-Za-z][A-Za-z0-9-]*)(${ATTRS})(/?)>`, 'g');
const ANY_TAG = new RegExp(String.raw`<(/?)([A-Za-z][A-Za-z0-9-]*)(${ATTRS})(/?)>`, 'g');
const IMG_TAG = new RegExp(String.raw`<img(?=[\s/>])${ATTRS}/?>`, 'gi');
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const HIDING_STYLE =
  /display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|opacity\s*:\s*0*\.?0+\s*(?:;|$)|font-size\s*:\s*0+(?:\.0+)?(?:[a-z%]*)?\s*(?:;|$)|(?:^|;)\s*(?:max-)?(?:height|width)\s*:\s*0+(?:[a-z%]*)?\s*(?:;|$)/i;
const INVISIBLE_NAMED_ENTITY =
  /&(?:zwj|zwnj|lrm|rlm|shy|ZeroWidthSpace|NegativeVeryThinSpace|NegativeThinSpace|NegativeMediumSpace|NegativeThickSpace|NoBreak|ic|InvisibleComma|it|InvisibleTimes|af|ApplyFunction);/g;

/** How much of a huge input is looked at, relative to what is kept: enough that removals cannot starve the result. */
const WORK_FACTOR = 3;

export function sanitize(text: string, maxChars = 20_000): string {
  const original = text.length;
  let out = text.length > maxChars * WORK_FACTOR ? text.slice(0, maxChars * WORK_FACTOR) : text;
  out = out.replace(/\r\n?/g, '\n').replace(LINE_SEPARATORS, '\n');
  // Every pass only removes or escapes, so it settles; removing one construct can join the halves of another.
  let settled = false;
  for (let i = 0; i < 10 && !settled; i++) {
    const next = pass(out);
    settled = next === out;
    out = next;
  }
  if (!settled) {
    // Markup nested to defeat the passes: keep only what the next pass would leave alone.
    const next = pass(out);
    let k = 0;
    while (k < out.length && out[k] === next[k]) k++;
    out = `${out.slice(0, k)}\n\n[the rest is cut: its markup nests too deep to show safely]`;
  }
  out = out
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (out.length > maxChars || original > maxChars * WORK_FACTOR) {
    out = `${out.slice(0, maxChars)}\n\n[truncated: the text has ${original.toLocaleString('en-US')} characters; only the first part is shown]`;
  }
  return out;
}

/**
 * The markup a reader's page renders, images and all: hidden elements, comments, invisible
 * characters and code blocks gone, nothing else changed. Where the request's images are looked
 * for (#36): an image in a hidden part or a code block is not one the person showed.
 */
export function renderedMarkup(text: string): string {
  let out = text.replace(/\r\n?/g, '\n');
  for (let i = 0; i < 10; i++) {
    const next = removeHiddenElements(removeComments(stripInvisible(out)));
    if (next === out) break;
    out = next;
  }
  return segments(out)
    .filter((s) => !s.code)
    .map((s) => s.text)
    .join('');
}

function pass(text: string): string {
  let out = stripInvisible(text);
  out = removeComments(out);
  out = removeHiddenElements(out);
  return segments(out)
    .map((s) => (s.code ? s.text : cleanProse(s.text)))
    .join('');
}

function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '').replace(ASTRAL_INVISIBLE, '');
}

/**
 * HTML comments, CDATA, processing instructions and declarations render as nothing. One
 * that starts a line and never ends hides the rest of the document (an HTML block); one
 * inside a line that never ends is shown as text, so it stays.
 */
function removeComments(text: string): string {
  let out = text;
  for (const [open, close] of [
    ['<!--', '-->'],
    ['<![CDATA[', ']]>'],
    ['<?', '?>'],
  ] as const)
    out = removeDelimited(out, open, close);
  return removeDelimited(out, '<!', '>', /^<![A-Za-z]/);
}

/** Linear in the text, however many openers it holds: once no closer follows, none will. */
function removeDelimited(text: string, open: string, close: string, shape?: RegExp): string {
  let out = '';
  let i = 0;
  for (;;) {
    const at = text.indexOf(open, i);
    if (at < 0) return out + text.slice(i);
    if (shape && !shape.test(text.slice(at, at + 3))) {
      out += text.slice(i, at + open.length);
      i = at + open.length;
      continue;
    }
    const end = text.indexOf(close, at + open.length);
    if (end >= 0) {
      out += text.slice(i, at);
      i = end + close.length;
      continue;
    }
    // Never closed: inline it is text, but one that starts a line is an HTML block hiding the rest.
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    if (/^[ \t]{0,3}$/.test(text.slice(lineStart, at))) return out + text.slice(i, lineStart);
    const escaped = open.replace(/[[\]?]/g, '\\$&');
    const block = new RegExp(`\\n[ \\t]{0,3}${escaped}`).exec(text.slice(at));
    return out + text.slice(i, block ? at + block.index + 1 : text.length);
  }
}

function attributes(attrs: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of attrs.matchAll(ATTR)) map.set(m[1]!.toLowerCase(), m[2] ?? m[3] ?? m[4] ?? '');
  return map;
}

function hides(tag: string, attrs: string): boolean {
  if (NOT_RENDERED.includes(tag)) return true;
  const a = attributes(attrs);
  return (
    a.has('hidden') ||
    a.get('aria-hidden')?.toLowerCase() === 'true' ||
    (tag === 'input' && a.get('type')?.toLowerCase() === 'hidden') ||
    HIDING_STYLE.test(a.get('style') ?? '')
  );
}

/**
 * Removes every element a reader cannot see, with all it contains, counting nested
 * elements of the same name so `<div hidden><div>x</div>evil</div>` goes whole. An
 * element that is never closed hides everything after it.
 */
function removeHiddenElements(text: string): string {
  let out = '';
  let from = 0;
  OPEN_TAG.lastIndex = 0;
  for (let m = OPEN_TAG.exec(text); m; m = OPEN_TAG.exec(text)) {
    const tag = m[1]!.toLowerCase();
    if (!hides(tag, m[2]!)) continue;
    out += text.slice(from, m.index);
    const end = m[3] || VOID.has(tag) ? OPEN_TAG.lastIndex : closingEnd(text, tag, OPEN_TAG.lastIndex);
    from = end;
    OPEN_TAG.lastIndex = end;
    if (end >= text.length) break;
  }
  return out + text.slice(from);
}

/** Where the element opened just before `from` ends: after its matching close tag, or the end of the text. */
function closingEnd(text: string, tag: string, from: number): number {
  const re = new RegExp(String.raw`<(/?)${tag}(?=[\s/>])${ATTRS}(/?)>`, 'gi');
  re.lastIndex = from;
  let depth = 1;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1]) depth--;
    else if (!m[2]) depth++;
    if (depth === 0) return re.lastIndex;
  }
  return text.length;
}

interface Segment {
  code: boolean;
  text: string;
}

/**
 * Splits the text into fenced code blocks and the rest. Conservative where GitHub's
 * parser is subtle: a fence inside raw HTML is no fence, and a closing fence is any
 * line GitHub would close on, so nothing GitHub renders as markup is taken for code.
 */
function segments(text: string): Segment[] {
  const out: Segment[] = [];
  const push = (code: boolean, line: string) => {
    const last = out.at(-1);
    if (last && last.code === code) last.text += line;
    else out.push({ code, text: line });
  };
  let fence: { char: string; len: number } | null = null;
  let html: RegExp | 'blank' | null = null;
  const lines = text.split(/(?<=\n)/);
  for (const line of lines) {
    const body = line.replace(/\n$/, '');
    if (fence) {
      push(true, line);
      const close = /^ {0,3}(`+|~+)[ \t]*$/.exec(body);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.len) fence = null;
      continue;
    }
    if (html) {
      push(false, line);
      if (html === 'blank' ? body.trim() === '' : html.test(body)) html = null;
      continue;
    }
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(body);
    if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      fence = { char: open[1]![0]!, len: open[1]!.length };
      push(true, line);
      continue;
    }
    const end = htmlBlockEnd(body);
    push(false, line);
    if (end && (end === 'blank' || !end.test(body.replace(/^ {0,3}<[^\s>]*/, '')))) html = end;
  }
  return out;
}

/** CommonMark's HTML blocks: how the one this line starts ends (none when it starts none). */
function htmlBlockEnd(line: string): RegExp | 'blank' | null {
  if (/^ {0,3}<(?:script|pre|style|textarea)(?:\s|>|$)/i.test(line)) return /<\/(?:script|pre|style|textarea)>/i;
  if (/^ {0,3}<!--/.test(line)) return /-->/;
  if (/^ {0,3}<\?/.test(line)) return /\?>/;
  if (/^ {0,3}<!\[CDATA\[/.test(line)) return /\]\]>/;
  if (/^ {0,3}<![A-Za-z]/.test(line)) return />/;
  if (/^ {0,3}<\/?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)/.test(line)) return 'blank';
  return null;
}

/** Markdown and HTML outside code: what renders invisibly goes, the visible text stays. */
function cleanProse(text: string): string {
  let out = text.replace(IMG_TAG, '[image]');
  out = replaceImages(out);
  // Link reference definitions never render, title and label included; footnotes ([^1]: …) do.
  out = out.replace(/^ {0,3}\[(?!\^)(?:[^\]\\\n]|\\.){1,999}\]:[ \t]*\S+(?:[ \t]*\n?[ \t]*(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$\n?/gm, '');
  // A link's title shows only as a tooltip.
  out = out.replace(/\]\([ \t]*(<[^>\n]{0,2000}>|[^\s)]{0,2000})[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\))[ \t]*\)/g, ']($1)');
  // Attribute values (title, alt, aria-label, data-*, anything) show nowhere; the tags themselves may stay.
  out = out.replace(ANY_TAG, (_, close: string, tag: string, _attrs: string, self: string) => `<${close}${tag}${self ? ' /' : ''}>`);
  return decodeEntities(out);
}

/**
 * `![alt](url)`, `![alt][ref]` and `![alt]` become `[image]`: alt text is what a
 * reader does not see. Brackets nest, so the alt text is matched by counting.
 */
function replaceImages(text: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const at = text.indexOf('![', i);
    if (at < 0) return out + text.slice(i);
    const close = matching(text, at + 1, '[', ']');
    if (close < 0) return out + text.slice(i);
    let end = close + 1;
    const target = text[end] === '(' ? matching(text, end, '(', ')') : text[end] === '[' ? matching(text, end, '[', ']') : -1;
    if (target > 0) end = target + 1;
    out += `${text.slice(i, at)}[image]`;
    i = end;
  }
}

/** Index of the bracket closing the one at `open`, skipping escapes; -1 if none. */
function matching(text: string, open: number, left: string, right: string): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === left) depth++;
    else if (c === right && --depth === 0) return i;
  }
  return -1;
}

/**
 * Numeric entities render as the character they name, so they are decoded and what
 * is invisible removed. `<`, `>` and `&` stay escaped: decoded, `&#60;!-- x --&#62;`
 * would become markup the reader saw as plain text.
 */
function decodeEntities(text: string): string {
  const decode = (code: number) => {
    if (code === 60) return '&lt;';
    if (code === 62) return '&gt;';
    if (code === 38) return '&amp;';
    if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
    return String.fromCodePoint(code);
  };
  const decoded = text
    .replace(/&#[xX]([0-9a-fA-F]{1,8});/g, (_, hex: string) => decode(Number.parseInt(hex, 16)))
    .replace(/&#(\d{1,9});/g, (_, dec: string) => decode(Number.parseInt(dec, 10)))
    .replace(INVISIBLE_NAMED_ENTITY, '')
    .replace(/&nbsp;/g, ' ');
  return stripInvisible(decoded.replace(LINE_SEPARATORS, '\n'));
}
