import { z } from 'zod';

/**
 * Images a run reads (#36): which URLs in the text are images crew may fetch, what a
 * file's bytes say it is, and the limits. Pure: fetching is the Forge's (`attachment`), and
 * steps/images.ts puts the two together.
 *
 * The limits follow the Messages API's image rules (platform.claude.com, "Vision", General limits):
 * at most 5 MB per image, counted on the base64 data (so 3.75 MB of bytes), at most 8000 px a side
 * (2000 px once a request holds more than 20 images), JPEG, PNG, GIF or WebP only.
 */

export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

export const IMAGE_LIMITS = {
  /** Bytes of one image: its base64 stays within the API's 5 MB per image. */
  bytes: 3_750_000,
  /** Pixels a side: the API's limit for a request of up to 20 images. */
  side: 8000,
  /** Pixels in all: a screenshot of a 6K screen; larger ones cost tokens and tell the model nothing more. */
  pixels: 24_000_000,
  /** Images read per run, so a request never holds more than 20 (the API's 2000 px rule). */
  perRun: 10,
} as const;

/**
 * What the model is charged for an image, at most: the API scales an image down until it fits in
 * about 1,600 tokens (tokens ≈ width × height / 750). crew's prompt estimate counts every image so.
 */
export const IMAGE_TOKENS = 1600;

export type Sniffed = { ok: true; mediaType: ImageMediaType; width: number; height: number } | { ok: false; reason: string };

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

function pngSize(b: Uint8Array): [number, number] | null {
  // The first chunk is IHDR: width and height, 4 bytes each, big-endian (PNG spec §11.2.2).
  if (b.length < 24 || ascii(b, 12, 16) !== 'IHDR') return null;
  return [u32be(b, 16), u32be(b, 20)];
}

function gifSize(b: Uint8Array): [number, number] | null {
  // The logical screen descriptor follows the 6-byte signature: width, height, little-endian.
  return b.length < 10 ? null : [u16le(b, 6), u16le(b, 8)];
}

function jpegSize(b: Uint8Array): [number, number] | null {
  // Walk the segments to the first start-of-frame (SOF0–SOF15 but DHT C4, JPG C8, DAC CC).
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = u16be(b, i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return [u16be(b, i + 7), u16be(b, i + 5)];
    if (length < 2) return null;
    i += 2 + length;
  }
  return null;
}

function webpSize(b: Uint8Array): [number, number] | null {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 16);
  // The three bitstream headers (Google's "WebP Container Specification").
  if (chunk === 'VP8 ') return [u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff];
  if (chunk === 'VP8L') {
    const [b0, b1, b2, b3] = [b[21]!, b[22]!, b[23]!, b[24]!];
    return [1 + (((b1 & 0x3f) << 8) | b0), 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6))];
  }
  if (chunk === 'VP8X') return [1 + u24le(b, 24), 1 + u24le(b, 27)];
  return null;
}

/** Text that is an SVG (or any XML): a picture made of markup, which can carry scripts and links. */
function looksLikeSvg(b: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(b.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg')) || (head.startsWith('<!doctype svg') && head.includes('<svg'));
}

/** What the bytes are, by their signature, never by a name or a Content-Type; with the limits applied. */
export function sniffImage(b: Uint8Array): Sniffed {
  if (b.length === 0) return { ok: false, reason: 'the file is empty' };
  if (b.length > IMAGE_LIMITS.bytes)
    return { ok: false, reason: `it is over the size limit (${megabytes(b.length)} MB; at most ${megabytes(IMAGE_LIMITS.bytes)} MB)` };
  let mediaType: ImageMediaType | undefined;
  let size: [number, number] | null = null;
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 8) === 'PNG\r\n\x1a\n') [mediaType, size] = ['image/png', pngSize(b)];
  else if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) [mediaType, size] = ['image/jpeg', jpegSize(b)];
  else if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) [mediaType, size] = ['image/gif', gifSize(b)];
  else if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') [mediaType, size] = ['image/webp', webpSize(b)];
  if (!mediaType) {
    if (looksLikeSvg(b))
      return { ok: false, reason: 'it is an SVG, which crew does not send (markup that can hold scripts and links, and the API does not take it)' };
    return { ok: false, reason: 'it is not a PNG, JPEG, GIF or WebP image (checked by its bytes)' };
  }
  if (!size || size[0] < 1 || size[1] < 1) return { ok: false, reason: `its ${mediaType} header is damaged: crew cannot read its size` };
  const [width, height] = size;
  if (width > IMAGE_LIMITS.side || height > IMAGE_LIMITS.side)
    return { ok: false, reason: `it is ${width}×${height} px; each side may be at most ${IMAGE_LIMITS.side} px` };
  if (width * height > IMAGE_LIMITS.pixels)
    return {
      ok: false,
      reason: `it is ${width}×${height} px (${((width * height) / 1e6).toFixed(1)} megapixels); at most ${IMAGE_LIMITS.pixels / 1e6} megapixels`,
    };
  return { ok: true, mediaType, width, height };
}

const megabytes = (n: number) => (n / 1e6).toFixed(2).replace(/\.?0+$/, '');

/**
 * The images a piece of markdown shows: `![alt](url)` and `<img src="url">`, in order, each once.
 * Links to files (`[log](url)`) are not images and are left alone.
 */
export function imageUrls(markdown: string): string[] {
  const found: string[] = [];
  const add = (u: string | undefined) => {
    const url = u?.trim().replace(/^<|>$/g, '');
    if (url && /^(https?|file):\/\//i.test(url) && !found.includes(url)) found.push(url);
  };
  for (const m of markdown.matchAll(/!\[[^\]]*\]\(\s*(<[^>]+>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g)) add(m[1]);
  for (const m of markdown.matchAll(/<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]+)"|'([^']+)'|([^\s>]+))/gi)) add(m[1] ?? m[2] ?? m[3]);
  return found;
}

/**
 * Which of GitHub's image URLs `url` is (#36). crew's token goes with none of them (#47: GitHub
 * answers 404 to every token at a private repository's attachment URL); the kind says which may be
 * read through the signed links GitHub renders for the token (adapters/github/forge.ts):
 *
 * - `this-repository`: `<server>/<owner>/<repo>/assets/<n>/<id>` (the older form) of the repository
 *   crew works on. The form names its repository; another one's is refused, because a person's or
 *   an app's token may read a private repository the author wants shown to the model.
 * - `unnamed`: `<server>/user-attachments/assets/<id>` (pasted since 2024). The URL does not say which
 *   repository it was pasted in, so only a token that reads this repository alone may follow its signed link.
 * - `signed`: on github.com, the image hosts behind both (`user-images.githubusercontent.com`, and
 *   `private-user-images.githubusercontent.com`, whose `?jwt=` is the URL's own credential, short-lived
 *   and made for whoever viewed it), fetched as anyone holding the link would.
 *
 * Anything else is somebody's server: crew does not fetch it (the request would tell its owner who
 * reads the issue, and when).
 */
export type AttachmentUrl = { ok: true; kind: 'this-repository' | 'unnamed' | 'signed' } | { ok: false; reason: string };

const NOT_GITHUB = 'it is not an image uploaded to GitHub (crew fetches only those)';

export function attachmentUrl(url: string, serverUrl: string, repo: { owner: string; name: string }): AttachmentUrl {
  let u: URL;
  let server: URL;
  try {
    u = new URL(url);
    server = new URL(serverUrl);
  } catch {
    return { ok: false, reason: NOT_GITHUB };
  }
  if (u.username || u.password) return { ok: false, reason: NOT_GITHUB };
  if (u.origin === server.origin) {
    if (/^\/user-attachments\/assets\/[0-9a-f-]{8,}$/i.test(u.pathname)) return { ok: true, kind: 'unnamed' };
    const legacy = /^\/([\w.-]+)\/([\w.-]+)\/assets\/\d+\/[0-9a-f-]{8,}$/i.exec(u.pathname);
    if (!legacy) return { ok: false, reason: NOT_GITHUB };
    // GitHub's owner and repository names are case-insensitive.
    if (legacy[1]!.toLowerCase() === repo.owner.toLowerCase() && legacy[2]!.toLowerCase() === repo.name.toLowerCase())
      return { ok: true, kind: 'this-repository' };
    return {
      ok: false,
      reason: `it is an image of another repository (${legacy[1]}/${legacy[2]}); crew reads only this repository's images, so its token never reaches another's`,
    };
  }
  const imageHost =
    server.hostname === 'github.com' &&
    u.protocol === 'https:' &&
    ['user-images.githubusercontent.com', 'private-user-images.githubusercontent.com'].includes(u.hostname);
  return imageHost ? { ok: true, kind: 'signed' } : { ok: false, reason: NOT_GITHUB };
}

/**
 * Where on GitHub a text crew read lives (#47), so a job can read it again as GitHub renders it:
 * the (or pull request's) body, an issue comment, a pull request's reviews, or its review
 * comments (the last two one listing each, whichever of them holds the image).
 */
export const TextItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('issue'), number: z.int().positive() }),
  z.object({ kind: z.literal('comment'), id: z.int().positive() }),
  z.object({ kind: z.literal('reviews'), pull: z.int().positive() }),
  z.object({ kind: z.literal('review-comments'), pull: z.int().positive() }),
]);
export type TextItem = z.infer<typeof TextItemSchema>;

/** An image a person's text shows, and the texts that show it. */
export const FoundImageSchema = z.preprocess(
  // Recorded before #47: the URL alone.
  (v) => (typeof v === 'string' ? { url: v, in: [] } : v),
  z.object({ url: z.string(), in: z.array(TextItemSchema) }),
);
export type FoundImage = z.infer<typeof FoundImageSchema>;

/**
 * The images of these texts (each already as a reader sees it: sanitize.ts's renderedMarkup), in
 * order, each once, with every text that shows it.
 */
export function foundImages(texts: ReadonlyArray<{ shown: string; in?: TextItem | undefined }>): FoundImage[] {
  return mergeImages(texts.flatMap((t) => imageUrls(t.shown).map((url) => ({ url, in: t.in ? [t.in] : [] }))));
}

/** The same images once each, in order of first sight, with the texts of all. */
export function mergeImages(found: readonly FoundImage[]): FoundImage[] {
  const out = new Map<string, FoundImage>();
  for (const f of found) {
    const into = out.get(f.url) ?? { url: f.url, in: [] };
    out.set(f.url, into);
    for (const i of f.in) if (!into.in.some((x) => JSON.stringify(x) === JSON.stringify(i))) into.in.push(i);
  }
  return [...out.values()];
}

/**
 * The text that asked for a run (`trigger`): on issue or pull request `number`, the `/crew`
 * comment, or a pull request's review or review comment; none for a label, an assignment or CI.
 */
export function triggerText(trigger: { commentId: number; how?: string | undefined }, number: number): TextItem | undefined {
  if (!trigger.commentId) return undefined;
  if (trigger.how === 'review') return { kind: 'reviews', pull: number };
  if (trigger.how === 'review_comment') return { kind: 'review-comments', pull: number };
  return trigger.how === undefined ? { kind: 'comment', id: trigger.commentId } : undefined;
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The upload's GUID in one of GitHub's attachment URLs (`…/assets/<guid>`, `…/assets/<n>/<guid>`): its last path segment. */
export function attachmentGuid(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    return new RegExp(`^${GUID.source}$`, 'i').test(last) ? last.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The signed image URLs in a body GitHub rendered (`body_html` of the `full` media type), by the
 * upload's GUID (#47). A private repository's attachment is `<img src>` on the storage host,
 * `/<owner-id>/<asset-id>-<guid>.<ext>?jwt=…`; it is paired with the markdown's attachment by that
 * GUID, in the file name and nowhere else, never by the images' order (a hidden image is in the HTML
 * and not in what crew reads). The storage host: on github.com `private-user-images.githubusercontent.com`
 * over https; on another server (GitHub Enterprise Server, which serves uploads from its own host or
 * a subdomain of it) that host or one under it, over the server's protocol.
 */
export function signedImageUrls(bodyHtml: string, serverUrl: string): Map<string, string> {
  const out = new Map<string, string>();
  const server = new URL(serverUrl);
  const storage = (u: URL) =>
    server.hostname === 'github.com'
      ? u.protocol === 'https:' && u.hostname === 'private-user-images.githubusercontent.com'
      : u.protocol === server.protocol && (u.hostname === server.hostname || u.hostname.endsWith(`.${server.hostname}`));
  const file = new RegExp(`^/\\d+/\\d+-(${GUID.source})\\.[a-z0-9]+$`, 'i');
  for (const m of bodyHtml.matchAll(/<img\b[^>]*?\bsrc="([^"]+)"/gi)) {
    let u: URL;
    try {
      u = new URL(m[1]!.replace(/&amp;/g, '&'));
    } catch {
      continue;
    }
    const guid = file.exec(u.pathname)?.[1]?.toLowerCase();
    if (guid && storage(u) && !u.username && !u.password && u.searchParams.has('jwt') && !out.has(guid)) out.set(guid, u.toString());
  }
  return out;
}

/** One image the run read, or refused: by its source (a URL, or `file://` locally) and what crew found. */
export const ImageRecordSchema = z.union([
  z.object({
    /** `image-1`, `image-2`, …: how the plan's tasks name it. */
    id: z.string(),
    source: z.string(),
    sha256: z.string(),
    mediaType: z.enum(IMAGE_MEDIA_TYPES),
    bytes: z.number(),
    width: z.number(),
    height: z.number(),
    /** The texts that show it (#47): a later job reads them again for fresh signed URLs. */
    in: z.array(TextItemSchema).optional(),
  }),
  z.object({ source: z.string(), refused: z.string() }),
]);
export type ImageRecord = z.infer<typeof ImageRecordSchema>;
export type ReadImage = Extract<ImageRecord, { sha256: string }>;

export const isRead = (r: ImageRecord): r is ReadImage => 'sha256' in r;

/**
 * What a prompt says of the images a model was to see and does not (#36): each one's id and why, so
 * the model never writes as if it had seen them. `lines` are loadImages's `image-2 could not be loaded: …`.
 */
export function notLoadedNote(lines: readonly string[] | undefined): string[] {
  if (!lines?.length) return [];
  return [
    '',
    'These images of the request could not be loaded, so they are not shown and you have not seen them (say so where it matters):',
    ...lines.map((l) => `- ${l}`),
  ];
}

/** An image's line for a prompt: its id, what it is, where it came from. */
export function imageLine(r: ReadImage): string {
  return `${r.id}: ${r.mediaType}, ${r.width}×${r.height} px, from ${r.source}`;
}
