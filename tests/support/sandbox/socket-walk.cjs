// The socket walk (#46), run inside a sandbox as `node socket-walk.cjs`: it finds every Unix socket
// the command can see (a walk of the whole file system but /proc and /sys, and the abstract ones its
// network namespace lists in /proc/net/unix, and every file mounted on another: find sees a socket
// bound onto a file by the folder's entry, which says "file"), tries to connect to each, and prints one line:
// `::walk {"seen": <how many sockets>, "connected": [<paths that accepted>]}`.
const { spawnSync } = require('child_process');
const { readFileSync, statSync } = require('fs');
const net = require('net');

const found = spawnSync('find', ['/', '(', '-path', '/proc', '-o', '-path', '/sys', ')', '-prune', '-o', '-type', 's', '-print'], {
  encoding: 'utf8',
  maxBuffer: 100_000_000,
  stdio: ['ignore', 'pipe', 'ignore'],
})
  .stdout.split('\n')
  .filter(Boolean);
let abstract = [];
try {
  abstract = readFileSync('/proc/net/unix', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/)[7])
    .filter((p) => p && p.startsWith('@'));
} catch {
  // no /proc/net/unix: nothing abstract to try
}

const mounted = readFileSync('/proc/self/mountinfo', 'utf8')
  .split('\n')
  .map((l) => l.split(' ')[4])
  .filter(Boolean)
  .map((p) => p.replace(/\\([0-7]{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8))))
  .filter((p) => {
    try {
      return statSync(p).isSocket();
    } catch {
      return false;
    }
  });

function tryConnect(path) {
  return new Promise((resolve) => {
    const c = net.connect(path.startsWith('@') ? `\0${path.slice(1)}` : path);
    const timer = setTimeout(() => (c.destroy(), resolve(false)), 2000);
    c.on('connect', () => (clearTimeout(timer), c.destroy(), resolve(true)));
    c.on('error', () => (clearTimeout(timer), resolve(false)));
  });
}

(async () => {
  const all = [...new Set([...found, ...mounted, ...abstract])];
  const connected = [];
  for (const p of all) if (await tryConnect(p)) connected.push(p);
  process.stdout.write(`::walk ${JSON.stringify({ seen: all.length, connected })}\n`);
})();
