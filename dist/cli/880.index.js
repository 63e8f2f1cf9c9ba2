export const id = 880;
export const ids = [880];
export const modules = {

/***/ 5880:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  startEgressProxy: () => (/* binding */ startEgressProxy)
});

// EXTERNAL MODULE: external "node:dns"
var external_node_dns_ = __webpack_require__(40610);
// EXTERNAL MODULE: external "node:events"
var external_node_events_ = __webpack_require__(78474);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(77030);
// EXTERNAL MODULE: ./node_modules/proxy-chain/dist/index.js + 23 modules
var dist = __webpack_require__(89472);
// EXTERNAL MODULE: ./src/domain/egress.ts
var egress = __webpack_require__(30061);
;// CONCATENATED MODULE: ./src/sandbox/egress/client-hello.ts
/**
 * The first flight of a TLS connection, as crew's egress proxy reads it before it relays a CONNECT
 * tunnel: the ClientHello's server name (RFC 8446 §4.1.2; server_name, RFC 6066 §3). A CDN edge picks
 * the site by that name, so a tunnel opened to an allowed host must name that host and no other.
 * Pure: bytes in, a verdict out.
 */
/** Enough for any real ClientHello (post-quantum key shares make them about 2 kB); more is refused. */
const MAX_HELLO_BYTES = 64 * 1024;
const HANDSHAKE = 22;
const CLIENT_HELLO = 1;
const SERVER_NAME = 0;
const HOST_NAME = 0;
/** encrypted_client_hello (draft-ietf-tls-esni): the real name travels encrypted, so the outer one proves nothing. */
const ENCRYPTED_CLIENT_HELLO = 0xfe0d;
/** Reads the ClientHello from the start of a tunnel: its TLS records (type 22) until the handshake message is whole. */
function readClientHello(bytes) {
    const handshake = [];
    let at = 0;
    let need;
    while (need === undefined || handshake.length < need) {
        if (at + 5 > bytes.length)
            return more(bytes);
        if (bytes[at] !== HANDSHAKE)
            return { kind: 'refused', why: at === 0 ? 'the tunnel does not start with TLS' : 'the ClientHello is cut by a record that is not a handshake' };
        const length = (bytes[at + 3] << 8) | bytes[at + 4];
        if (length === 0 || length > 16384)
            return { kind: 'refused', why: 'a TLS record of a length TLS does not allow' };
        if (at + 5 + length > bytes.length)
            return more(bytes);
        for (const b of bytes.subarray(at + 5, at + 5 + length))
            handshake.push(b);
        at += 5 + length;
        if (need === undefined && handshake.length >= 4) {
            if (handshake[0] !== CLIENT_HELLO)
                return { kind: 'refused', why: 'the first handshake message is not a ClientHello' };
            need = 4 + ((handshake[1] << 16) | (handshake[2] << 8) | handshake[3]);
            if (need > MAX_HELLO_BYTES)
                return { kind: 'refused', why: 'a ClientHello larger than any client sends' };
        }
    }
    return parseHello(Uint8Array.from(handshake.slice(4, need)));
}
function more(bytes) {
    return bytes.length > MAX_HELLO_BYTES ? { kind: 'refused', why: 'no ClientHello in the first 64 kB' } : { kind: 'more' };
}
/** The ClientHello's body: version, random, session id, cipher suites, compression methods, then extensions. */
function parseHello(body) {
    const bad = { kind: 'refused', why: 'a malformed ClientHello' };
    let at = 2 + 32;
    if (at + 1 > body.length)
        return bad;
    at += 1 + body[at];
    if (at + 2 > body.length)
        return bad;
    at += 2 + ((body[at] << 8) | body[at + 1]);
    if (at + 1 > body.length)
        return bad;
    at += 1 + body[at];
    // No extensions at all: a ClientHello without a server name.
    if (at === body.length)
        return { kind: 'hello', serverName: null, encryptedHello: false };
    if (at + 2 > body.length)
        return bad;
    const end = at + 2 + ((body[at] << 8) | body[at + 1]);
    if (end !== body.length)
        return bad;
    at += 2;
    const seen = new Set();
    let serverName = null;
    while (at < end) {
        if (at + 4 > end)
            return bad;
        const type = (body[at] << 8) | body[at + 1];
        const length = (body[at + 2] << 8) | body[at + 3];
        const data = body.subarray(at + 4, at + 4 + length);
        if (at + 4 + length > end)
            return bad;
        at += 4 + length;
        // TLS forbids two extensions of one type (RFC 8446 §4.2): a server may read either, so crew reads neither.
        if (seen.has(type))
            return { kind: 'refused', why: 'a ClientHello with an extension twice' };
        seen.add(type);
        if (type !== SERVER_NAME)
            continue;
        const names = serverNames(data);
        if (!names)
            return bad;
        // RFC 6066 §3: at most one name of a type; several would leave the choice to the edge.
        if (names.length !== 1)
            return { kind: 'refused', why: `a ClientHello with ${names.length} server names` };
        serverName = names[0];
    }
    return { kind: 'hello', serverName, encryptedHello: seen.has(ENCRYPTED_CLIENT_HELLO) };
}
/** server_name's list: host names (type 0) as ASCII. Undefined when it does not parse. */
function serverNames(data) {
    if (data.length < 2 || ((data[0] << 8) | data[1]) !== data.length - 2)
        return undefined;
    const names = [];
    for (let at = 2; at < data.length;) {
        if (at + 3 > data.length)
            return undefined;
        const type = data[at];
        const length = (data[at + 1] << 8) | data[at + 2];
        if (at + 3 + length > data.length)
            return undefined;
        const name = data.subarray(at + 3, at + 3 + length);
        at += 3 + length;
        if (type !== HOST_NAME)
            continue;
        if (name.some((c) => c < 0x21 || c > 0x7e))
            return undefined;
        names.push(String.fromCharCode(...name));
    }
    return names;
}
/** A fatal TLS alert (access_denied, RFC 8446 §6.2): how the tunnel says no once it has answered 200. */
const ACCESS_DENIED_ALERT = Uint8Array.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x31]);

// EXTERNAL MODULE: ./src/sandbox/egress/socket-place.ts
var socket_place = __webpack_require__(59976);
;// CONCATENATED MODULE: ./src/sandbox/egress/proxy.ts








/** IPv4 169.254/16 and IPv6 fe80::/10: cloud metadata endpoints live there, and no registry does. */
function linkLocal(address) {
    return (0,external_node_net_.isIP)(address) === 4 ? address.startsWith('169.254.') : /^fe[89ab][0-9a-f]:/i.test(address);
}
/** A `dns.lookup` for the proxy's connections: the machine's resolver or the given server; never a link-local address. */
function lookupFor(server) {
    const resolver = server ? new external_node_dns_.Resolver() : undefined;
    resolver?.setServers([server]);
    return (hostname, options, callback) => {
        const all = typeof options === 'object' && options.all === true;
        const done = (err, found) => {
            if (err)
                return callback(err, all ? [] : '');
            const usable = found.filter((a) => !linkLocal(a.address));
            if (!usable.length) {
                const e = new Error(`${hostname} has no address crew's egress proxy connects to (link-local addresses are refused)`);
                e.code = 'ENOTFOUND';
                return callback(e, all ? [] : '');
            }
            if (all)
                callback(null, usable);
            else
                callback(null, usable[0].address, usable[0].family);
        };
        if (!resolver)
            (0,external_node_dns_.lookup)(hostname, { all: true }, (e, found) => done(e, found ?? []));
        else
            resolver.resolve4(hostname, (e, found) => done(e, (found ?? []).map((address) => ({ address, family: 4 }))));
    };
}
async function startEgressProxy(opts) {
    const refused = {};
    const dnsLookup = lookupFor(opts.resolver);
    /** Counts a refusal under `key` (the host, or `named (via host)` when a request names another site than its target). */
    const count = (key) => {
        const k = key in refused || Object.keys(refused).length < egress/* MAX_COUNTED_HOSTS */.Gg ? key : egress/* OTHER_HOSTS */.Jq;
        refused[k] = (refused[k] ?? 0) + 1;
    };
    const refuse = (host, port, how, named) => {
        count(named === undefined ? host : viaKey(named, host));
        opts.onRefused?.(host, port, how, named);
        const refusal = new dist/* RequestError */.GI(named === undefined
            ? `crew's egress allowlist refused ${host}: model-written code reaches only the allowed hosts. If the repository needs it, add it to network.allow in .github/crew.yml.`
            : `crew's egress proxy refused a request to ${host}: ${named.startsWith('(') ? named.slice(1, -1) : `its Host header names ${named}`}. A request must name the host it is sent to, in one Host header.`, 403);
        // proxy-chain recognises its error by name, and a bundler may rename the class (ncc makes it `request_error_RequestError`).
        refusal.name = 'RequestError';
        return refusal;
    };
    const proxy = new dist/* Server */.gq({
        port: 0,
        host: '127.0.0.1',
        verbose: false,
        prepareRequestFunction: ({ hostname, port, isHttp, request }) => {
            const host = (0,egress/* normaliseHost */.f2)(hostname);
            // Checked before any lookup: a refused name is never resolved, so names cannot carry data out through DNS either.
            if (!(0,egress/* hostAllowed */.VI)(opts.allow, host))
                throw refuse(host, port, isHttp ? 'HTTP' : 'CONNECT');
            if (isHttp) {
                // An edge that serves many sites picks one by Host: the request must name the host it goes to, once.
                const named = otherHostNamed(request.rawHeaders, host, port);
                if (named !== undefined)
                    throw refuse(host, port, 'HTTP', named);
                return { dnsLookup: dnsLookup };
            }
            return {
                customConnectServer: tunnelChecker(host, port, dnsLookup, (named) => {
                    count(viaKey(named, host));
                    opts.onRefused?.(host, port, 'CONNECT', named);
                }),
            };
        },
    });
    let place;
    let bridge;
    /** The sandbox's connections: closing the proxy ends them (a client's idle keep-alive would otherwise hold the close up). */
    const open = new Set();
    try {
        await proxy.listen();
        // The job's process must still end when its work is done: neither listener keeps it alive.
        proxy.server.unref();
        place = await (0,socket_place/* makeEgressSocketPlace */.eA)();
        const listening = (0,external_node_net_.createServer)((client) => {
            open.add(client);
            client.on('close', () => open.delete(client));
            const upstream = (0,external_node_net_.connect)(proxy.port, '127.0.0.1');
            client.on('error', () => upstream.destroy());
            upstream.on('error', () => client.destroy());
            client.pipe(upstream);
            upstream.pipe(client);
        });
        bridge = listening;
        listening.unref();
        await new Promise((resolve, reject) => {
            listening.once('error', reject);
            listening.listen(place.socket, () => resolve());
        });
    }
    catch (e) {
        // A proxy that does not start leaves nothing behind: no listener, no folder (a job would otherwise wait for them).
        bridge?.close();
        await proxy.close(true).catch(() => undefined);
        if (place)
            await (0,promises_.rm)(place.dir, { recursive: true, force: true });
        throw e;
    }
    const { dir, socket } = place;
    let closed = false;
    const kept = (0,socket_place/* removedAtExit */.og)(dir);
    return {
        socket,
        allow: opts.allow,
        refused: () => ({ ...refused }),
        close: async () => {
            if (closed)
                return;
            closed = true;
            const closing = new Promise((resolve) => bridge.close(() => resolve()));
            for (const c of open)
                c.destroy();
            await closing;
            await proxy.close(true).catch(() => undefined);
            await (0,promises_.rm)(dir, { recursive: true, force: true });
            kept();
        },
    };
}
/** How a request that names another site than its target (or none) is counted and listed: both names, or the host and why. */
function viaKey(named, host) {
    return named.startsWith('(') ? `${host} ${named}` : `${named} (via ${host})`;
}
/** A name a request chose, as the log and the pull request show it: a host name, or a note (it may be any text). */
function shownName(name) {
    const n = (0,egress/* normaliseHost */.f2)(name);
    return /^[a-z0-9_.:-]{1,253}$/.test(n) ? n : '(a name that is not a host name)';
}
/**
 * The host a plain request's `Host` header names when it is not its target (`host:port` of the
 * absolute URI), or `(no Host header)` / `(n Host headers)`; undefined when it names the target once.
 * The raw headers, since proxy-chain forwards every one of them.
 */
function otherHostNamed(rawHeaders, host, port) {
    const hosts = [];
    for (let i = 0; i < rawHeaders.length; i += 2)
        if (rawHeaders[i].toLowerCase() === 'host')
            hosts.push(rawHeaders[i + 1] ?? '');
    if (hosts.length !== 1)
        return hosts.length ? `(${hosts.length} Host headers)` : '(no Host header)';
    const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(hosts[0].trim());
    const named = (0,egress/* normaliseHost */.f2)(m?.[1] ?? hosts[0]);
    if (m && named === host && (m[2] === undefined || Number(m[2]) === port))
        return undefined;
    return named ? shownName(named) : '(an empty Host header)';
}
/**
 * What crew's proxy hands an allowed CONNECT to (proxy-chain's `customConnectServer`: it answers 200,
 * then emits the client's socket here). The tunnel is relayed only once its ClientHello names the
 * CONNECT line's host; anything else (another name, no name, an encrypted ClientHello, bytes that are
 * not TLS, nothing within HELLO_WAIT_MS) is refused before the target is even connected to.
 */
function tunnelChecker(host, port, dnsLookup, onRefused) {
    const server = new external_node_events_.EventEmitter();
    server.on('connection', (client) => {
        let buffered = Buffer.alloc(0);
        const refuse = (named) => {
            finish();
            onRefused(named);
            client.end(ACCESS_DENIED_ALERT);
        };
        const onData = (chunk) => {
            buffered = Buffer.concat([buffered, chunk]);
            const verdict = readClientHello(buffered);
            if (verdict.kind === 'more')
                return;
            if (verdict.kind === 'refused')
                return refuse(`(${verdict.why})`);
            if (verdict.encryptedHello)
                return refuse('(an encrypted ClientHello)');
            // No name at all: the edge then picks a site by what comes later, inside TLS, where crew cannot look.
            if (verdict.serverName === null)
                return refuse('(no TLS server name)');
            const named = (0,egress/* normaliseHost */.f2)(verdict.serverName);
            if (named !== host)
                return refuse(shownName(named));
            finish();
            relay(client, buffered, host, port, dnsLookup);
        };
        const timer = setTimeout(() => refuse('(no ClientHello in time)'), HELLO_WAIT_MS);
        timer.unref();
        const finish = () => {
            clearTimeout(timer);
            client.off('data', onData);
            client.pause();
        };
        client.on('error', () => finish());
        client.on('close', () => clearTimeout(timer));
        client.on('data', onData);
    });
    return server;
}
/** How long a tunnel may take to send its ClientHello. */
const HELLO_WAIT_MS = 15_000;
/** Connects to the allowed target (by crew's own lookup) and relays both ways, starting with the ClientHello read. */
function relay(client, first, host, port, dnsLookup) {
    const target = (0,external_node_net_.connect)({ host, port, lookup: dnsLookup });
    target.on('connect', () => {
        target.write(first);
        client.pipe(target);
        target.pipe(client);
        client.resume();
    });
    target.on('error', () => client.destroy());
    client.on('error', () => target.destroy());
    target.on('close', () => client.destroy());
    client.on('close', () => target.destroy());
}


/***/ })

};
