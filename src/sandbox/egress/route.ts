import { PROXY_PORT } from '../../domain/sandbox-reach';

/**
 * The sandbox's one way out: inside its network namespace (only `lo`, no route, no resolver), a
 * forwarder listens on 127.0.0.1:PROXY_PORT and hands each connection to crew's egress proxy through
 * its Unix socket (proxy.ts). Tools find it through the usual proxy variables; a tool that ignores
 * them gets no network at all, and a DNS lookup of any name fails for want of a resolver.
 */

/** What the sandbox's commands need to find the proxy: the variables most package managers and HTTP clients read. */
export function proxyEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  const local = 'localhost,127.0.0.1,::1';
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    ALL_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    all_proxy: url,
    NO_PROXY: local,
    no_proxy: local,
    // Node's own fetch and http honour the variables only when asked (Node 22.21+, 24.5+).
    NODE_USE_ENV_PROXY: '1',
    // Maven, Gradle and every other JVM tool read the JVM's proxy properties, not the variables.
    JAVA_TOOL_OPTIONS: `-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=${PROXY_PORT} -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=${PROXY_PORT} -Dhttp.nonProxyHosts=localhost|127.0.0.1`,
  };
}

/**
 * The forwarder, run by crew's node (`node -e FORWARDER -- <n> <host port socket probe>… <command…>`) as the
 * sandbox's first process, before the command drops to the tool user: it checks the sockets marked
 * `probe` answer (the egress proxy's), listens on each address inside the namespace (127.0.0.1:PROXY_PORT
 * for the proxy; a service's own address, #51), hands each connection to its socket, then runs the
 * command and exits with its status, which ends the namespace and everything the command left running.
 * Exit 125 means a route could not be set up.
 */
export const FORWARDER = `
const net = require('net'), cp = require('child_process'), os = require('os');
const argv = process.argv.slice(1);
const routes = [];
for (let i = 0, n = Number(argv[0]); i < n; i++) routes.push({ host: argv[1 + 4 * i], port: Number(argv[2 + 4 * i]), sock: argv[3 + 4 * i], probe: argv[4 + 4 * i] === '1' });
const cmd = argv.slice(1 + 4 * routes.length);
const fail = (what, e) => { process.stderr.write('crew: ' + (what === 'the proxy socket' || what.endsWith(':${PROXY_PORT}') ? 'the egress route' : 'the route to ' + what) + ' could not be set up (' + what + ': ' + (e.code || e.message) + ')\\n'); process.exit(125); };
const probed = (r) => new Promise((ok) => {
  if (!r.probe) return ok();
  const p = net.connect(r.sock);
  p.on('error', (e) => fail('the proxy socket', e));
  p.on('connect', () => { p.destroy(); ok(); });
});
const listening = (r) => new Promise((ok) => {
  const server = net.createServer((c) => {
    const u = net.connect(r.sock);
    c.on('error', () => u.destroy());
    u.on('error', () => c.destroy());
    c.pipe(u);
    u.pipe(c);
  });
  const at = r.host.includes(':') ? '[' + r.host + ']:' + r.port : r.host + ':' + r.port;
  server.on('error', (e) => fail(at, e));
  server.listen(r.port, r.host, ok);
});
(async () => {
  for (const r of routes) await probed(r);
  for (const r of routes) await listening(r);
  const child = cp.spawn(cmd[0], cmd.slice(1), { stdio: 'inherit' });
  child.on('error', (e) => { process.stderr.write('crew: could not start the command: ' + e.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (os.constants.signals[signal] || 9) : code));
})();
`;
