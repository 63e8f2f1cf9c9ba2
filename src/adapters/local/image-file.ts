import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { AttachmentRefused } from '../../ports';

/** A `file://` image the person gave with `--image`: at most `maxBytes + 1` bytes are read, so a huge file is refused cheaply. */
export async function readImageFile(url: string, maxBytes: number): Promise<Uint8Array> {
  if (!url.startsWith('file://')) throw new AttachmentRefused('locally crew reads only the files given with --image, not URLs');
  const path = fileURLToPath(url);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    throw new AttachmentRefused(`it cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new AttachmentRefused(`it is over the size limit (${(size / 1e6).toFixed(2)} MB; at most ${(maxBytes / 1e6).toFixed(2)} MB)`);
    const buf = Buffer.alloc(size);
    await handle.read(buf, 0, size, 0);
    return new Uint8Array(buf);
  } finally {
    await handle.close();
  }
}
