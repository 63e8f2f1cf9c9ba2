import { createHash } from 'node:crypto';
import type { AgentImage } from '../agents/decomposer';
import { IMAGE_LIMITS, imageLine, isRead, sniffImage, type FoundImage, type ImageRecord, type ReadImage, type TextItem } from '../domain/images';
import { AttachmentRefused, type ImageBlock } from '../ports';
import type { StepContext } from './context';

/**
 * The request's images (#36): planning reads them once, records each by its source and sha256 in
 * run.json (`images`), and every later job that shows one to a model fetches it again and checks the
 * hash (nothing binary lives on crew/state). The words crew writes here are for the plan comment.
 */

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function fetchChecked(
  ctx: StepContext,
  source: string,
  from: readonly TextItem[] | undefined,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; reason: string }> {
  try {
    return { ok: true, bytes: await ctx.forge.attachment(source, IMAGE_LIMITS.bytes, from) };
  } catch (e) {
    if (e instanceof AttachmentRefused) return { ok: false, reason: e.message };
    throw e;
  }
}

/**
 * The images found in what a reader sees (sanitize.ts's renderedMarkup; domain/images.ts's
 * foundImages), read or refused; numbered on from the run's `recorded` ones (an answer's come later).
 */
export async function collectImages(
  ctx: StepContext,
  found: readonly FoundImage[],
  recorded: readonly ImageRecord[] = [],
): Promise<{ records: ImageRecord[]; images: AgentImage[] }> {
  const out: ImageRecord[] = [];
  const images: AgentImage[] = [];
  let read = recorded.filter(isRead).length;
  for (const { url: source, in: from } of found) {
    if (read >= IMAGE_LIMITS.perRun) {
      out.push({ source, refused: `the run already has ${IMAGE_LIMITS.perRun} images, the most crew reads per run` });
      continue;
    }
    const got = await fetchChecked(ctx, source, from);
    if (!got.ok) {
      out.push({ source, refused: got.reason });
      continue;
    }
    const sniffed = sniffImage(got.bytes);
    if (!sniffed.ok) {
      out.push({ source, refused: sniffed.reason });
      continue;
    }
    read++;
    const record: ReadImage = {
      id: `image-${read}`,
      source,
      sha256: sha256(got.bytes),
      mediaType: sniffed.mediaType,
      bytes: got.bytes.length,
      width: sniffed.width,
      height: sniffed.height,
      ...(from.length ? { in: from } : {}),
    };
    out.push(record);
    images.push(agentImage(record, got.bytes));
  }
  for (const r of out)
    ctx.log.info(isRead(r) ? `image ${r.id} read: ${r.source} (sha256 ${r.sha256.slice(0, 12)})` : `image refused: ${r.source}: ${r.refused}`);
  return { records: out, images };
}

/**
 * The recorded images with these ids (all of them when `ids` is absent), fetched again for a model:
 * one that cannot be fetched now, or whose bytes changed since planning hashed them, is left out, and
 * said so in the log and in `missing` (`image-2 could not be loaded: <why>`), which the caller puts in
 * the model's prompt and on crew/state for the plan comment.
 */
export async function loadImages(
  ctx: StepContext,
  records: readonly ImageRecord[] | null,
  ids?: readonly string[],
): Promise<{ images: AgentImage[]; missing: string[] }> {
  const wanted = (records ?? []).filter(isRead).filter((r) => !ids || ids.includes(r.id));
  const images: AgentImage[] = [];
  const missing: string[] = [];
  for (const r of wanted) {
    const got = await fetchChecked(ctx, r.source, r.in);
    const why = !got.ok ? got.reason : sha256(got.bytes) !== r.sha256 ? 'its bytes changed since planning read them' : null;
    if (why || !got.ok) {
      ctx.log.warn(`image ${r.id} (${r.source}) is left out: ${why}`);
      missing.push(`${r.id} could not be loaded: ${why}`);
      continue;
    }
    images.push(agentImage(r, got.bytes));
  }
  return { images, missing };
}

function agentImage(r: ReadImage, bytes: Uint8Array): AgentImage {
  const block: ImageBlock = { type: 'image', source: { type: 'base64', media_type: r.mediaType, data: Buffer.from(bytes).toString('base64') } };
  return { id: r.id, line: imageLine(r), block };
}
