import { invalidRequest } from './errors';

/**
 * The Messages API's rules for image blocks (platform.claude.com/docs/en/build-with-claude/vision,
 * "General limits", and the 400s the API answers with, as reported in anthropics/claude-code#13480
 * and shellicar/claude-cli#323):
 *
 * - `source.type` base64 takes `media_type` image/jpeg, image/png, image/gif or image/webp, and the
 *   data must be that kind of image;
 * - at most 5 MB per image (5,242,880 bytes of base64 data);
 * - at most 8000 px a side, or 2000 px once the request holds more than 20 images;
 * - at most 100 images per request;
 * - images go in user turns (a user message, or a tool result's content).
 *
 * The dimensions are read here from the headers, independently of crew's own reader.
 */
const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const MAX_BASE64_BYTES = 5 * 1024 * 1024;
const MAX_IMAGES = 100;

export interface ImageInfo {
  mediaType: string;
  width: number;
  height: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the bytes are and how big, or undefined when they are none of the four formats. */
export function imageInfo(b: Buffer): ImageInfo | undefined {
  if (b.length >= 24 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { mediaType: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length >= 10 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return { mediaType: 'image/gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    const kind = b.toString('latin1', 12, 16);
    if (kind === 'VP8X') return { mediaType: 'image/webp', width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
    if (kind === 'VP8 ') return { mediaType: 'image/webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
    if (kind === 'VP8L') {
      const bits = b.readUInt32LE(21);
      return { mediaType: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    return undefined;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    for (let i = 2; i + 9 < b.length;) {
      if (b[i] !== 0xff) return undefined;
      const m = b[i + 1]!;
      if (m >= 0xc0 && m <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(m))
        return { mediaType: 'image/jpeg', width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      i += 2 + b.readUInt16BE(i + 2);
    }
    return { mediaType: 'image/jpeg', width: 0, height: 0 };
  }
  return undefined;
}

/** Checks every image block of a request; returns what each one is, for the usage rule. */
export function checkImages(messages: Array<{ role: string; content: unknown }>): void {
  const found: Array<{ path: string; info: ImageInfo }> = [];
  const visit = (blocks: unknown, path: string, role: string) => {
    if (!Array.isArray(blocks)) return;
    blocks.forEach((block: unknown, j) => {
      if (!isObject(block)) return;
      const at = `${path}.${j}`;
      if (block.type === 'tool_result') return visit(block.content, `${at}.content`, role);
      if (block.type !== 'image') return;
      if (role !== 'user') throw invalidRequest(`${at}.image: images are only allowed in user messages`);
      const source = block.source;
      if (!isObject(source)) throw invalidRequest(`${at}.image.source: Field required`);
      if (source.type !== 'base64')
        throw invalidRequest(
          `${at}.image.source.type: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'`,
        );
      if (typeof source.media_type !== 'string' || !MEDIA_TYPES.includes(source.media_type))
        throw invalidRequest(`${at}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`);
      if (typeof source.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(source.data) || source.data.length % 4 !== 0)
        throw invalidRequest(`${at}.image.source.base64.data: Invalid base64 data`);
      if (source.data.length > MAX_BASE64_BYTES)
        throw invalidRequest(`${at}.image.source.base64: image exceeds 5 MB maximum: ${source.data.length} bytes > ${MAX_BASE64_BYTES} bytes`);
      const info = imageInfo(Buffer.from(source.data, 'base64'));
      if (!info) throw invalidRequest(`${at}.image.source.base64.data: Could not process image`);
      if (info.mediaType !== source.media_type)
        throw invalidRequest(
          `${at}.image.source.base64.data: The image was specified using the ${source.media_type} media type, but the image appears to be a ${info.mediaType} image`,
        );
      found.push({ path: at, info });
    });
  };
  messages.forEach((m, i) => visit(m.content, `messages.${i}.content`, m.role));
  if (found.length > MAX_IMAGES) throw invalidRequest(`messages: Too many images in the request: ${found.length} > ${MAX_IMAGES}`);
  const side = found.length > 20 ? 2000 : 8000;
  for (const f of found)
    if (f.info.width > side || f.info.height > side)
      throw invalidRequest(
        `${f.path}.image.source.base64.data: At least one of the image dimensions exceed max allowed size${found.length > 20 ? ' for many-image requests' : ''}: ${side} pixels`,
      );
}

/**
 * The fake's usage rule for an image: the API bills about width × height / 750 tokens, after scaling
 * an image down to about 1,600 tokens at most (the vision docs' "Evaluate image size").
 */
export function imageTokens(data: string): number {
  const info = imageInfo(Buffer.from(data, 'base64'));
  if (!info || !info.width || !info.height) return 1600;
  return Math.min(1600, Math.ceil((info.width * info.height) / 750));
}
