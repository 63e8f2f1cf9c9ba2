import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** An object as `git cat-file` names it: its id, type and (for `contents`) its bytes. */
export interface GitObject {
  sha: string;
  type: string;
  content?: Buffer;
}

interface Pending {
  command: string;
  withContent: boolean;
  resolve: (object: GitObject | undefined) => void;
  reject: (error: Error) => void;
}

/**
 * One `git cat-file --batch-command` kept open per repository, for the fake's REST reads (a ref's
 * commit, a file at a ref, a path's blob id). Starting git from the test process costs it a fork
 * of itself each time, and the fake reads refs and files on most REST requests.
 *
 * The answers are those of a fresh `git rev-parse --verify` or `git cat-file`: each command
 * resolves its name through the same code (get_oid_with_context), which reads loose refs from disk
 * on every lookup, re-reads packed-refs when the file changes, and looks for new packs when an
 * object is not in the ones it knows. So refs moved and objects written by pushes, the REST API or
 * a test straight in the repository are seen at once.
 * Source: https://git-scm.com/docs/git-cat-file (--batch-command, "info" and "contents").
 */
/** A running git process and the commands it has yet to answer. */
interface Session {
  child: ChildProcessWithoutNullStreams;
  queue: Pending[];
  buffered: Buffer;
}

export class ObjectReader {
  private session?: Session;

  constructor(private readonly gitDir: string) {}

  /** The object a name (`refs/heads/main^{commit}`, `<sha>:path`) resolves to, or undefined. */
  info(name: string): Promise<GitObject | undefined> {
    return this.send('info', name);
  }

  /** The object and its bytes, or undefined when the name resolves to nothing. */
  contents(name: string): Promise<GitObject | undefined> {
    return this.send('contents', name);
  }

  /** Lets the git process end once it has answered what it was asked (it exits when its input closes). */
  close(): void {
    this.session?.child.stdin.end();
    this.session = undefined;
  }

  private send(command: 'info' | 'contents', name: string): Promise<GitObject | undefined> {
    // One command per line: a name with a line break cannot be asked (git allows none in refs or tree paths).
    if (/[\n\r]/.test(name)) return Promise.reject(new Error(`ObjectReader: object name with a line break: ${JSON.stringify(name)}`));
    const session = this.start();
    return new Promise((resolve, reject) => {
      if (session.queue.length === 0) hold(session.child, true);
      session.queue.push({ command: `${command} ${name}`, withContent: command === 'contents', resolve, reject });
      session.child.stdin.write(`${command} ${name}\n`);
    });
  }

  private start(): Session {
    if (this.session) return this.session;
    const child = spawn('git', ['cat-file', '--batch-command'], {
      cwd: this.gitDir,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const session: Session = { child, queue: [], buffered: Buffer.alloc(0) };
    this.session = session;
    const stderr: Buffer[] = [];
    child.stderr.on('data', (d: Buffer) => stderr.push(d));
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk: Buffer) => {
      session.buffered = session.buffered.length ? Buffer.concat([session.buffered, chunk]) : chunk;
      drain(session);
    });
    const fail = (why: string) => {
      if (this.session === session) this.session = undefined;
      const detail = Buffer.concat(stderr).toString().trim();
      for (const p of session.queue.splice(0))
        p.reject(new Error(`git cat-file --batch-command in ${this.gitDir} ${why} before answering "${p.command}"${detail ? `: ${detail}` : ''}`));
    };
    child.on('error', (error) => fail(`failed to start (${error.message})`));
    child.on('close', (code) => fail(`exited (${code})`));
    hold(child, false);
    return session;
  }
}

/** Keeps the test process alive only while an answer is awaited: an idle reader never holds it open. */
function hold(child: ChildProcessWithoutNullStreams, busy: boolean): void {
  for (const handle of [child, child.stdout, child.stdin, child.stderr] as unknown as Array<{ ref(): void; unref(): void }>) {
    if (busy) handle.ref();
    else handle.unref();
  }
}

/** Hands out every whole answer in the output so far, in the order the commands went. */
function drain(session: Session): void {
  while (session.queue.length > 0) {
    const eol = session.buffered.indexOf(10);
    if (eol < 0) return;
    const header = session.buffered.subarray(0, eol).toString('utf8');
    const pending = session.queue[0]!;
    // "<name> missing" or "<name> ambiguous"; otherwise "<sha> <type> <size>".
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      session.buffered = session.buffered.subarray(eol + 1);
      session.queue.shift();
      pending.resolve(undefined);
    } else {
      const [sha, type, size] = header.split(' ') as [string, string, string];
      if (!pending.withContent) {
        session.buffered = session.buffered.subarray(eol + 1);
        session.queue.shift();
        pending.resolve({ sha, type });
      } else {
        // The bytes, then a line feed.
        const length = Number(size);
        if (session.buffered.length < eol + 1 + length + 1) return;
        const content = Buffer.from(session.buffered.subarray(eol + 1, eol + 1 + length));
        session.buffered = session.buffered.subarray(eol + 1 + length + 1);
        session.queue.shift();
        pending.resolve({ sha, type, content });
      }
    }
  }
  hold(session.child, false);
}
