// What model-written code tries on the network, written for the sandbox tests: run as
// `node net-probe.cjs <what>…`, it prints one JSON line per try. It uses the proxy the environment
// names, the way npm, pip and curl do, and also tries the ways around it.
const http = require('http');
const dns = require('dns');
const net = require('net');
const tls = require('tls');

const proxy = process.env.HTTP_PROXY ? new URL(process.env.HTTP_PROXY) : null;

function request(url, method, body, hostHeader) {
  return new Promise((resolve) => {
    const target = new URL(url);
    const opts = proxy
      ? { host: proxy.hostname, port: proxy.port, method, path: url, headers: { host: hostHeader || target.host } }
      : { host: target.hostname, port: target.port || 80, method, path: target.pathname };
    const req = http.request(opts, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', (e) => resolve({ error: e.code || e.message }));
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.end(body);
  });
}

function tunnel(hostPort) {
  return new Promise((resolve) => {
    if (!proxy) return resolve({ error: 'no proxy' });
    const req = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: hostPort });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) return (resolve({ status: res.statusCode }), socket.destroy());
      socket.write(`GET / HTTP/1.1\r\nHost: ${hostPort}\r\nConnection: close\r\n\r\n`);
      let text = '';
      socket.on('data', (c) => (text += c));
      socket.on('end', () => resolve({ status: 200, inside: text.split('\r\n\r\n')[1] }));
    });
    req.on('response', (res) => resolve({ status: res.statusCode }));
    req.on('error', (e) => resolve({ error: e.code || e.message }));
    req.end();
  });
}

// A tunnel to hostPort whose TLS names `sni` ('-': no name at all), then one GET inside (a CDN stand-in's
// certificate is self-signed, so it is not checked: what matters is which site the edge picked).
function tlsTunnel(hostPort, sni) {
  return new Promise((resolve) => {
    if (!proxy) return resolve({ error: 'no proxy' });
    const req = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: hostPort });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) return (resolve({ status: res.statusCode }), socket.destroy());
      const name = sni === '-' ? '' : sni;
      const secure = tls.connect({ socket, servername: name, rejectUnauthorized: false }, () => {
        secure.write(`GET / HTTP/1.1\r\nHost: ${name || hostPort}\r\nConnection: close\r\n\r\n`);
      });
      let text = '';
      secure.on('data', (c) => (text += c));
      secure.on('end', () => resolve({ status: 200, inside: text.split('\r\n\r\n')[1] }));
      secure.on('error', (e) => resolve({ tunnel: 200, error: e.code || e.message }));
      secure.setTimeout(5000, () => secure.destroy(new Error('timeout')));
    });
    req.on('response', (res) => resolve({ status: res.statusCode }));
    req.on('error', (e) => resolve({ error: e.code || e.message }));
    req.end();
  });
}

const lookup = (name) => new Promise((resolve) => dns.lookup(name, (e, address) => resolve(e ? { error: e.code } : { address })));
function resolveVia(server, name) {
  const r = new dns.Resolver({ timeout: 1000, tries: 1 });
  r.setServers([server]);
  return new Promise((resolve) => r.resolve4(name, (e, a) => resolve(e ? { error: e.code } : { address: a })));
}
const connect = (host, port) =>
  new Promise((resolve) => {
    const s = net.connect(port, host);
    s.setTimeout(3000, () => s.destroy(new Error('timeout')));
    s.on('connect', () => (s.destroy(), resolve({ connected: true })));
    s.on('error', (e) => resolve({ error: e.code || e.message }));
  });

(async () => {
  for (const what of process.argv.slice(2)) {
    const [kind, ...args] = what.split('|');
    const out =
      kind === 'get'
        ? await request(args[0], 'GET')
        : kind === 'post'
          ? await request(args[0], 'POST', args[1] || 'data')
          : kind === 'posthost'
            ? await request(args[0], 'POST', args[2] || 'data', args[1])
            : kind === 'tls'
              ? await tlsTunnel(args[0], args[1])
              : kind === 'connect'
                ? await tunnel(args[0])
                : kind === 'lookup'
                  ? await lookup(args[0])
                  : kind === 'resolve'
                    ? await resolveVia(args[0], args[1])
                    : kind === 'tcp'
                      ? await connect(args[0], Number(args[1]))
                      : { error: `unknown ${kind}` };
    console.log(JSON.stringify({ what, ...out }));
  }
})();
