/**
 * The first flight of a TLS connection, as crew's egress proxy reads it before it relays a CONNECT
 * tunnel: the ClientHello's server name (RFC 8446 §4.1.2; server_name, RFC 6066 §3). A CDN edge picks
 * the site by that name, so a tunnel opened to an allowed host must name that host and no other.
 * Pure: bytes in, a verdict out.
 */

/** What the bytes so far say. `more`: the ClientHello is not complete yet. */
export type HelloVerdict = { kind: 'more' } | { kind: 'hello'; serverName: string | null; encryptedHello: boolean } | { kind: 'refused'; why: string };

/** Enough for any real ClientHello (post-quantum key shares make them about 2 kB); more is refused. */
export const MAX_HELLO_BYTES = 64 * 1024;

const HANDSHAKE = 22;
const CLIENT_HELLO = 1;
const SERVER_NAME = 0;
const HOST_NAME = 0;
/** encrypted_client_hello (draft-ietf-tls-esni): the real name travels encrypted, so the outer one proves nothing. */
const ENCRYPTED_CLIENT_HELLO = 0xfe0d;

/** Reads the ClientHello from the start of a tunnel: its TLS records (type 22) until the handshake message is whole. */
export function readClientHello(bytes: Uint8Array): HelloVerdict {
  const handshake: number[] = [];
  let at = 0;
  let need: number | undefined;
  while (need === undefined || handshake.length < need) {
    if (at + 5 > bytes.length) return more(bytes);
    if (bytes[at] !== HANDSHAKE)
      return { kind: 'refused', why: at === 0 ? 'the tunnel does not start with TLS' : 'the ClientHello is cut by a record that is not a handshake' };
    const length = (bytes[at + 3]! << 8) | bytes[at + 4]!;
    if (length === 0 || length > 16384) return { kind: 'refused', why: 'a TLS record of a length TLS does not allow' };
    if (at + 5 + length > bytes.length) return more(bytes);
    for (const b of bytes.subarray(at + 5, at + 5 + length)) handshake.push(b);
    at += 5 + length;
    if (need === undefined && handshake.length >= 4) {
      if (handshake[0] !== CLIENT_HELLO) return { kind: 'refused', why: 'the first handshake message is not a ClientHello' };
      need = 4 + ((handshake[1]! << 16) | (handshake[2]! << 8) | handshake[3]!);
      if (need > MAX_HELLO_BYTES) return { kind: 'refused', why: 'a ClientHello larger than any client sends' };
    }
  }
  return parseHello(Uint8Array.from(handshake.slice(4, need)));
}

function more(bytes: Uint8Array): HelloVerdict {
  return bytes.length > MAX_HELLO_BYTES ? { kind: 'refused', why: 'no ClientHello in the first 64 kB' } : { kind: 'more' };
}

/** The ClientHello's body: version, random, session id, cipher suites, compression methods, then extensions. */
function parseHello(body: Uint8Array): HelloVerdict {
  const bad = { kind: 'refused', why: 'a malformed ClientHello' } as const;
  let at = 2 + 32;
  if (at + 1 > body.length) return bad;
  at += 1 + body[at]!;
  if (at + 2 > body.length) return bad;
  at += 2 + ((body[at]! << 8) | body[at + 1]!);
  if (at + 1 > body.length) return bad;
  at += 1 + body[at]!;
  // No extensions at all: a ClientHello without a server name.
  if (at === body.length) return { kind: 'hello', serverName: null, encryptedHello: false };
  if (at + 2 > body.length) return bad;
  const end = at + 2 + ((body[at]! << 8) | body[at + 1]!);
  if (end !== body.length) return bad;
  at += 2;
  const seen = new Set<number>();
  let serverName: string | null = null;
  while (at < end) {
    if (at + 4 > end) return bad;
    const type = (body[at]! << 8) | body[at + 1]!;
    const length = (body[at + 2]! << 8) | body[at + 3]!;
    const data = body.subarray(at + 4, at + 4 + length);
    if (at + 4 + length > end) return bad;
    at += 4 + length;
    // TLS forbids two extensions of one type (RFC 8446 §4.2): a server may read either, so crew reads neither.
    if (seen.has(type)) return { kind: 'refused', why: 'a ClientHello with an extension twice' };
    seen.add(type);
    if (type !== SERVER_NAME) continue;
    const names = serverNames(data);
    if (!names) return bad;
    // RFC 6066 §3: at most one name of a type; several would leave the choice to the edge.
    if (names.length !== 1) return { kind: 'refused', why: `a ClientHello with ${names.length} server names` };
    serverName = names[0]!;
  }
  return { kind: 'hello', serverName, encryptedHello: seen.has(ENCRYPTED_CLIENT_HELLO) };
}

/** server_name's list: host names (type 0) as ASCII. Undefined when it does not parse. */
function serverNames(data: Uint8Array): string[] | undefined {
  if (data.length < 2 || ((data[0]! << 8) | data[1]!) !== data.length - 2) return undefined;
  const names: string[] = [];
  for (let at = 2; at < data.length;) {
    if (at + 3 > data.length) return undefined;
    const type = data[at]!;
    const length = (data[at + 1]! << 8) | data[at + 2]!;
    if (at + 3 + length > data.length) return undefined;
    const name = data.subarray(at + 3, at + 3 + length);
    at += 3 + length;
    if (type !== HOST_NAME) continue;
    if (name.some((c) => c < 0x21 || c > 0x7e)) return undefined;
    names.push(String.fromCharCode(...name));
  }
  return names;
}

/** A fatal TLS alert (access_denied, RFC 8446 §6.2): how the tunnel says no once it has answered 200. */
export const ACCESS_DENIED_ALERT = Uint8Array.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x31]);
