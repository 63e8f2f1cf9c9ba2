import { AttachmentRefused } from '../../ports';

/** Redirects followed per attachment: GitHub sends one (a public upload → its signed storage URL). */
const MAX_REDIRECTS = 3;

export interface AttachmentFetch {
  /** GitHub's web origin (`GITHUB_SERVER_URL`): plain http only when it is (the loopback world). */
  serverUrl: string;
  maxBytes: number;
  timeoutMs: number;
  /** Words for a 404 or 403, which say why the file may be out of reach. */
  notFound: (status: number) => string;
}

/**
 * Fetches an image pasted into an issue, with no credentials at all (#47): a signed storage URL
 * (`private-user-images.githubusercontent.com/…?jwt=…`, a JWT valid for five minutes) is its own
 * credential, and a storage host that gets a second one refuses it (or keeps it in its logs);
 * `<server>/user-attachments/assets/<id>` answers 404 to every token for a private repository, and
 * a public repository's redirects anyone to a signed URL. Redirects are followed by hand, capped.
 */
export async function fetchAttachment(url: string, o: AttachmentFetch): Promise<Uint8Array> {
  let at = url;
  const signal = AbortSignal.timeout(o.timeoutMs);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const target = new URL(at);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new AttachmentRefused(`it redirects to a ${target.protocol} URL`);
    // http is only ever the loopback world's; on GitHub every hop is https.
    if (target.protocol === 'http:' && new URL(o.serverUrl).protocol === 'https:') throw new AttachmentRefused('it redirects to a plain-http URL');
    let res: Response;
    try {
      res = await fetch(dialable(target), { headers: { accept: 'image/*' }, redirect: 'manual', signal });
    } catch (e) {
      throw new AttachmentRefused(
        signal.aborted
          ? `it did not download within ${Math.round(o.timeoutMs / 1000)} s`
          : `it could not be downloaded (${e instanceof Error ? e.message : String(e)})`,
      );
    }
    if (res.status >= 300 && res.status < 400) {
      const location = res.headers.get('location');
      await res.body?.cancel();
      if (!location) throw new AttachmentRefused(`GitHub answered ${res.status} without a Location`, res.status);
      at = new URL(location, target).toString();
      continue;
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new AttachmentRefused(res.status === 404 || res.status === 403 ? o.notFound(res.status) : `GitHub answered ${res.status}`, res.status);
    }
    try {
      return await readCapped(res, o.maxBytes);
    } catch (e) {
      // A body cut off or stalled past the time limit is a refused image like any other, not the run's failure.
      if (e instanceof AttachmentRefused) throw e;
      throw new AttachmentRefused(
        signal.aborted
          ? `it did not download within ${Math.round(o.timeoutMs / 1000)} s`
          : `its download broke off (${e instanceof Error ? e.message : String(e)})`,
      );
    }
  }
  throw new AttachmentRefused(`it redirected more than ${MAX_REDIRECTS} times`);
}

/**
 * `*.localhost` names are loopback (RFC 6761 §6.3), which curl and browsers know and Node's resolver
 * does not: such a server (a GitHub Enterprise Server on the runner's own machine) is dialled at
 * 127.0.0.1. The origin, and so where the token goes, is still decided on the name.
 */
function dialable(target: URL): URL {
  if (target.hostname !== 'localhost' && !target.hostname.endsWith('.localhost')) return target;
  const dial = new URL(target);
  dial.hostname = '127.0.0.1';
  return dial;
}

const mb = (n: number) => (n / 1e6).toFixed(2).replace(/\.?0+$/, '');

/** The body, stopping one byte past `maxBytes` so a huge file costs no more than that. */
export async function readCapped(res: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new AttachmentRefused(`it is over the size limit (${mb(declared)} MB; at most ${mb(maxBytes)} MB)`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      throw new AttachmentRefused(`it is over the size limit (more than ${mb(maxBytes)} MB)`);
    }
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}
