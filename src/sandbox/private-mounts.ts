import { readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/**
 * The machine's shared places, where sockets and other users' files live: systemd-resolved's varlink
 * socket and the D-Bus buses under /run, docker.sock, $XDG_RUNTIME_DIR (/run/user/UID), an ssh agent's
 * socket and crew's own proxy socket under /tmp. Network namespaces do not separate Unix sockets, so
 * each command's mount namespace gets an empty tmpfs over every one of them (#46).
 * /var/run and /run/shm are links into these on most systems; a real folder there is covered too.
 */
export const COVERED = ['/tmp', '/var/tmp', '/run', '/var/run', '/dev/shm'];

/** The name of the tmpfs over a read-only path whose mount's flags could not be kept (SCRIPT): a command's mount table shows it. */
export const LOCKED_MOUNT = 'crew-locked';

/** Where the sandbox finds crew's egress proxy: the proxy's own socket, bound to this path in the private /run. */
export const SANDBOX_PROXY_SOCKET = '/run/crew-egress.sock';

/** Where the sandbox finds the bridge to a service the setup steps started (#51), by its place in `network.services`. */
export const sandboxServiceSocket = (i: number) => `/run/crew-service-${i}.sock`;

/**
 * Run by the namespace's root before the command drops its privileges:
 * `bash -c SCRIPT crew-private <k> <socket dest…> <n> <kept…> <m> <hidden…> <r> <read-only flags…> <h> <holes…> <command…>`.
 * Each kept path is opened before the tmpfs covers it and mounted back from that handle
 * (/proc/self/fd/N, hence `mount -c`: the name alone would now find the empty tmpfs), so nothing is
 * ever written on the machine's own folders. Each socket the command is routed to (the egress proxy's,
 * the services' bridges) is bound to its place in the private /run (SANDBOX_PROXY_SOCKET,
 * sandboxServiceSocket); where it lay (inside a kept folder, say) an empty file covers it, and
 * each hidden folder gets an empty tmpfs. Each hole (a place the command needs as it is, inside a read-only path: the
 * checkout in a 0777 folder on PATH) is bound onto itself first, so it comes along as it was. Each read-only path
 * (kept, or in sight as it is) is bound onto itself read-only; in a user namespace the flags the machine's mount locks (nosuid, nodev, noexec, the atime ones) must be
 * asked for again, as its mount has them (lockedFlags: whether mount(8) restates them itself differs by version).
 * One that still cannot be made read-only is covered by an empty tmpfs named LOCKED_MOUNT (left out of the
 * sandbox, which crew says once: lockedNote), never left writable, never failing every command.
 * Exit 125: the sandbox could not be set up.
 */
const SCRIPT = `
k=$1; shift
srcs=() dsts=() sfds=()
for ((i = 0; i < k; i++)); do
  s=$1 d=$2; shift 2
  if [ ! -S "$s" ]; then
    if [ "$d" = ${SANDBOX_PROXY_SOCKET} ]; then echo "crew: the egress route could not be set up (the proxy socket: ENOENT)" >&2; else echo "crew: the route to a service could not be set up ($d: ENOENT)" >&2; fi
    exit 125
  fi
  exec {sfd}<"\${s%/*}" || exit 125
  srcs+=("$s"); dsts+=("$d"); sfds+=("$sfd")
done
n=$1; shift
kept=(); fds=()
for ((i = 0; i < n; i++)); do exec {fd}<"$1" || exit 125; kept+=("$1"); fds+=("$fd"); shift; done
m=$1; shift; hidden=("\${@:1:m}"); shift "$m"
r=$1; shift; ro=("\${@:1:2*r}"); shift "$((2 * r))"
h=$1; shift; holes=("\${@:1:h}"); shift "$h"
for d in ${COVERED.join(' ')}; do
  if [ -d "$d" ] && [ ! -L "$d" ]; then mount -t tmpfs -o mode=1777,nosuid,nodev crew-private "$d" || exit 125; fi
done
for ((i = 0; i < \${#kept[@]}; i++)); do
  p=\${kept[i]} f=/proc/self/fd/\${fds[i]}
  if [ -d "$f" ]; then mkdir -p -- "$p" || exit 125; else mkdir -p -- "\${p%/*}" && : > "$p" || exit 125; fi
  mount -c --rbind "$f" "$p" || exit 125
  eval "exec \${fds[i]}<&-"
done
for ((i = 0; i < \${#srcs[@]}; i++)); do
  s=\${srcs[i]} d=\${dsts[i]}
  : > "$d" && mount -c --bind "/proc/self/fd/\${sfds[i]}/\${s##*/}" "$d" || exit 125
  eval "exec \${sfds[i]}<&-"
done
for h in "\${hidden[@]}"; do
  if [ -S "$h" ] || [ -f "$h" ]; then mount --bind /dev/null "$h" || exit 125
  elif [ -d "$h" ]; then mount -t tmpfs -o mode=755,nosuid,nodev,size=4k crew-hidden "$h" || exit 125; fi
done
for w in "\${holes[@]}"; do mount --rbind "$w" "$w" || exit 125; done
for ((i = 0; i < r; i++)); do
  p=\${ro[2*i]} f=\${ro[2*i+1]}
  mount --rbind "$p" "$p" || exit 125
  mount -o "remount,bind,ro,$f" "$p" 2>/dev/null || mount -o remount,bind,ro "$p" 2>/dev/null ||
    mount -t tmpfs -o mode=755,nosuid,nodev,size=4k ${LOCKED_MOUNT} "$p" || exit 125
done
exec "$@"
`;

const unescape = (field: string) => field.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

/**
 * The flags a user namespace locks on the mount `path` lies on, as `/proc/self/mountinfo` (proc(5)) gives that mount's
 * own options: nosuid, nodev, noexec, and its atime rule (noatime, nodiratime, relatime; none of those is strictatime).
 * A remount inside the namespace must ask for them again: leaving one out asks to clear it, which the kernel refuses
 * (mount(2), EPERM).
 */
export function lockedFlags(path: string, mountinfo: string): string {
  let best: { at: string; options: string[] } | undefined;
  for (const line of mountinfo.split('\n')) {
    const f = line.split(' ');
    if (f.length < 6) continue;
    const at = unescape(f[4]!);
    // The last of equal mount points is the one on top.
    if (under(path, at) && (!best || at.length >= best.at.length)) best = { at, options: f[5]!.split(',') };
  }
  const options = best?.options ?? [];
  const kept = ['nosuid', 'nodev', 'noexec', 'noatime', 'nodiratime', 'relatime'].filter((o) => options.includes(o));
  return [...kept, ...(options.includes('noatime') || options.includes('relatime') ? [] : ['strictatime'])].join(',');
}

function mountTable(): string {
  try {
    return readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return '';
  }
}

/** The real path, or the path itself when it does not exist (then it is not kept). */
export function real(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Where a path lies, as far as crew's own user can tell: its real path; or, when a folder on the way cannot be
 * entered (a run's home handed to the tool user, 0700, which crew's user cannot search when it is not root), the
 * real path of the nearest parent it can reach with the rest of the name after it. A path that does not exist has none.
 */
function whereIs(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EACCES' || p === dirname(p)) return undefined;
    const parent = whereIs(dirname(p));
    return parent && join(parent, basename(p));
  }
}

export const under = (p: string, root: string) => p === root || p.startsWith(root.endsWith('/') ? root : `${root}/`);

/**
 * The paths a command needs that lie under a covered place (the workspace and crew's temp folder when they
 * are in /tmp, say): mounted back after the cover. A covered place itself is never kept whole, nor a path
 * inside another kept one (it comes along with it).
 */
export function keptPaths(paths: Array<string | undefined>): string[] {
  const roots = COVERED.map(real).filter((r): r is string => !!r);
  const found = [...new Set(paths.filter((p): p is string => !!p).map(real))].filter(
    (p): p is string => !!p && !roots.includes(p) && roots.some((r) => under(p, r)),
  );
  return found.filter((p) => !found.some((q) => q !== p && under(p, q))).sort();
}

/**
 * The argv that gives the rest of it a private /tmp, /run, /var/tmp and /dev/shm: `keep` mounted back,
 * `readOnly` too but read-only (PATH folders there: path-folders.ts), `hide` covered, with `socket` the proxy's
 * socket at SANDBOX_PROXY_SOCKET, and each of `services`' bridge sockets at sandboxServiceSocket(i).
 */
export function privateMountArgs(o: { keep: Array<string | undefined>; readOnly?: string[]; hide?: string[]; socket?: string; services?: string[] }): string[] {
  const kept = keptPaths([...o.keep, ...(o.readOnly ?? [])]);
  const ro = [...new Set((o.readOnly ?? []).map(real).filter((p): p is string => !!p))];
  const readOnly = ro.filter((p) => !ro.some((q) => q !== p && under(p, q))).sort();
  // What the command needs as it is inside a read-only path stays so (SCRIPT's holes), outermost first.
  const inside = [...new Set(o.keep.map((k) => k && real(k)).filter((k): k is string => !!k && readOnly.some((r) => k !== r && under(k, r))))];
  const holes = inside.filter((k) => !inside.some((q) => q !== k && under(k, q))).sort();
  // A folder that holds what the command needs (its cwd in a run's own home, say) stays in sight, though crew's
  // user may not see into it: run through sudo, the home is the tool user's alone (whereIs).
  const needed = o.keep.map((k) => k && whereIs(k)).filter((k): k is string => !!k);
  const hidden = (o.hide ?? []).filter((h) => real(h) && !needed.some((k) => under(k, real(h)!)));
  const routed: Array<[string, string]> = [
    ...(o.socket ? [[o.socket, SANDBOX_PROXY_SOCKET] as [string, string]] : []),
    ...(o.services ?? []).map((s, i) => [s, sandboxServiceSocket(i)] as [string, string]),
  ];
  for (const [socket] of routed) if (dirname(socket) === '/') throw new Error(`a routed socket must be in a folder of its own, not ${socket}`);
  return [
    'bash',
    '--noprofile',
    '--norc',
    '-c',
    SCRIPT,
    'crew-private',
    String(routed.length),
    ...routed.flat(),
    String(kept.length),
    ...kept,
    String(hidden.length),
    ...hidden,
    String(readOnly.length),
    ...readOnlyPairs(readOnly),
    String(holes.length),
    ...holes,
  ];
}

/** Each path with the flags its mount locks (lockedFlags), as SCRIPT and the user-namespace runner read them. */
export function readOnlyPairs(paths: readonly string[], mountinfo = mountTable()): string[] {
  return paths.flatMap((p) => [p, lockedFlags(p, mountinfo)]);
}

/** What a command's mount table (`/proc/self/mountinfo`) says was left out for LOCKED_MOUNT: a line for the job log per folder. */
export function lockedNote(mountinfo: string): string[] {
  return mountinfo
    .split('\n')
    .filter((l) => l.includes(` - tmpfs ${LOCKED_MOUNT} `))
    .map((l) => unescape(l.split(' ')[4]!))
    .map(
      (at) =>
        `The PATH folder ${at} is left out of the sandbox: its mount's flags are locked in the user namespace and it could not be made read-only there, so its programs are missing for the agent's commands. Put the tools it holds in a folder on a mount of your own (or run crew with a sandbox user: root or passwordless sudo).`,
    );
}

/**
 * Sockets outside the covered places that the environment of crew's own user names, or that sit where
 * tools keep them in a home: an ssh agent, the session bus, Docker's, GnuPG's agent. Local mode without
 * root runs commands as the person, who can reach their own; these are covered too (a socket elsewhere
 * in the home is not: docs/SECURITY.md).
 */
export function namedSockets(env: NodeJS.ProcessEnv = process.env, home = env.HOME ?? homedir()): string[] {
  const named = [
    env.SSH_AUTH_SOCK,
    ...(env.DBUS_SESSION_BUS_ADDRESS ?? '').split(';').map((a) => /^unix:(?:.*,)?path=([^,]+)/.exec(a)?.[1]),
    /^unix:\/\/(\/.+)$/.exec(env.DOCKER_HOST ?? '')?.[1],
    join(home, '.docker', 'run', 'docker.sock'),
    ...['S.gpg-agent', 'S.gpg-agent.ssh', 'S.gpg-agent.extra', 'S.gpg-agent.browser', 'S.dirmngr', 'S.keyboxd'].map((n) => join(home, '.gnupg', n)),
  ];
  return [...new Set(named.filter((p): p is string => !!p && p.startsWith('/')))];
}
