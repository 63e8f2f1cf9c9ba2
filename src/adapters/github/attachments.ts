import { AttachmentRefused } from '../../ports';

/** Redirects followed per attachment: GitHub sends one (the asset → its signed storage URL). */
const MAX_REDIRECTS = 3;

export interface AttachmentFetch {
  /** Absent: the request goes without credentials (a URL that may belong to another repository). */
  token?: string;
  /** GitHub's web origin (`GITHUB_SERVER_URL`): the one origin crew's token is sent to. */
  serverUrl: string;
  maxBytes: number;
  timeoutMs: number;
}

/**
 * Fetches an image pasted into an issue. `<server>/user-attachments/assets/<id>` of a private
 * repository answers only with a token, with a 302 to a short-lived signed URL on another host
 * (`private-user-images.githubusercontent.com/…?jwt=…`, a JWT valid for five minutes). Redirects are
 * followed by hand so the token goes to the server's own origin only: the signed URL is its own
 * credential, and a storage host that gets a second one refuses it (or keeps it in its logs).
 */
export async function fetchAttachment(url: string, o: AttachmentFetch): Promise<Uint8Array> {
  const server = new URL(o.serverUrl).origin;
  let at = url;
  const signal = AbortSignal.timeout(o.timeoutMs);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const target = new URL(at);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new AttachmentRefused(`it redirects to a ${target.protocol} URL`);
    // http is only ever the loopback world's; on GitHub every hop is https.
    if (target.protocol === 'http:' && new URL(o.serverUrl).protocol === 'https:') throw new AttachmentRefused('it redirects to a plain-http URL');
    const headers: Record<string, string> = { accept: 'image/*' };
    if (target.origin === server && o.token) headers.authorization = `Bearer ${o.token}`;
    let res: Response;
    try {
      res = await fetch(dialable(target), { headers, redirect: 'manual', signal });
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
      if (!location) throw new AttachmentRefused(`GitHub answered ${res.status} without a Location`);
      at = new URL(location, target).toString();
      continue;
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new AttachmentRefused(
        res.status === 404 || res.status === 403
          ? o.token
            ? `GitHub answered ${res.status}: crew's token cannot read it (or it is gone)`
            : `GitHub answered ${res.status} to a request without crew's token (it is private, or gone). A user-attachments URL does not say which repository it was pasted in, so crew sends its token with one only when that token reads this repository alone: the workflow's GITHUB_TOKEN (the github_token input's default)`
          : `GitHub answered ${res.status}`,
      );
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
