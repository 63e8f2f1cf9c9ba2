import { chmod, lstat, mkdir, mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { MAX_REPORT_BYTES, MAX_REPORT_FILES, type ReportFile } from '../../domain/test-results/read';
import type { CommandRunner } from '../command-runner';
import { CARGO_RUNNER, GO_EXEC, MOCHA_REPORTER, NODE_PRELOAD, NODE_REPORTER, PYTHON_SITECUSTOMIZE } from './hooks';

/** The cargo targets crew names a runner for (the machines GitHub's runners and people's are). */
const CARGO_TARGETS = ['X86_64_UNKNOWN_LINUX_GNU', 'AARCH64_UNKNOWN_LINUX_GNU', 'X86_64_APPLE_DARWIN', 'AARCH64_APPLE_DARWIN'];

/** Node's test runner takes `--test-reporter` from NODE_OPTIONS, with node:test/reporters' spec to pass events on to, from node 20. */
const NODE_REPORTER_SINCE = 20;

/** One run's report folder: the variables that send every runner's report there, and the folder itself. */
export interface ReportRun {
  dir: string;
  env: Record<string, string>;
}

/**
 * Where test reports come from (#32). Once per job: the hooks, in a folder outside the checkout
 * that the tool user can read but not change. For every run of a command criterion: a fresh,
 * empty report folder outside the checkout that the tool user can write into but not list, and
 * the variables that lead each runner there (environment routes, so `npm test`, `make test` and
 * the like are covered as well as the runner itself). A change to the tree cannot choose the
 * folder; what it holds after the run is read, then the folder is removed.
 */
export class TestReports {
  private constructor(
    private readonly hooks: string,
    private readonly root: string,
    /** Whether node's own runner gets crew's reporter (the node the sandbox finds is recent enough). */
    private readonly nodeReporter: boolean,
  ) {}

  /** Writes the hooks under `tempDir`. The node on the sandbox's PATH is asked its version, inside the sandbox. */
  static async prepare(tempDir: string, runner: CommandRunner, cwd: string): Promise<TestReports> {
    await mkdir(tempDir, { recursive: true });
    const hooks = await mkdtemp(join(tempDir, 'crew-test-hooks-'));
    const python = join(hooks, 'python');
    await mkdir(python);
    const node = process.execPath;
    const shim = (script: string) => `#!/bin/sh\nexec '${node.replace(/'/g, `'\\''`)}' '${join(hooks, script).replace(/'/g, `'\\''`)}' "$@"\n`;
    const files: Array<[string, string, number]> = [
      ['crew-node-reporter.cjs', NODE_REPORTER, 0o644],
      ['crew-node-preload.cjs', NODE_PRELOAD, 0o644],
      ['crew-mocha-reporter.cjs', MOCHA_REPORTER, 0o644],
      ['python/sitecustomize.py', PYTHON_SITECUSTOMIZE, 0o644],
      ['crew-go-exec.cjs', GO_EXEC, 0o644],
      ['crew-go-exec', shim('crew-go-exec.cjs'), 0o755],
      ['crew-cargo-runner.cjs', CARGO_RUNNER, 0o644],
      ['crew-cargo-runner', shim('crew-cargo-runner.cjs'), 0o755],
    ];
    for (const [name, text, mode] of files) {
      await writeFile(join(hooks, name), text, { mode });
      await chmod(join(hooks, name), mode);
    }
    await chmod(python, 0o755);
    await chmod(hooks, 0o755);
    const reportsRoot = await mkdtemp(join(tempDir, 'crew-test-reports-'));
    await chmod(reportsRoot, 0o711);
    const probe = await runner.run('node -p "process.versions.node"', { cwd, timeoutMs: 20_000, maxOutputBytes: 200 }).catch(() => undefined);
    const major = Number(/^(\d+)\./.exec(probe?.output.trim() ?? '')?.[1]);
    return new TestReports(hooks, reportsRoot, probe?.exitCode === 0 && major >= NODE_REPORTER_SINCE);
  }

  /** A fresh report folder and the environment that points every runner at it. `node: false` leaves node's own runner without crew's reporter. */
  async open(opts: { node?: boolean } = {}): Promise<ReportRun> {
    const dir = await mkdtemp(join(this.root, 'run-'));
    // Write and enter, no listing: one runner's report is not another process's to find.
    await chmod(dir, 0o733);
    const nodeOptions = [`--require=${join(this.hooks, 'crew-node-preload.cjs')}`];
    if (this.nodeReporter && opts.node !== false)
      nodeOptions.push(`--test-reporter=${join(this.hooks, 'crew-node-reporter.cjs')}`, '--test-reporter-destination=stdout');
    const env: Record<string, string> = {
      CREW_TEST_REPORT_DIR: dir,
      PYTHONPATH: join(this.hooks, 'python'),
      GOFLAGS: `-count=1 -exec=${join(this.hooks, 'crew-go-exec')}`,
      // A path with a space would split NODE_OPTIONS and GOFLAGS: then those routes are left out.
      ...(/\s/.test(this.hooks) ? {} : { NODE_OPTIONS: nodeOptions.join(' ') }),
    };
    if (/\s/.test(this.hooks)) delete env.GOFLAGS;
    for (const t of CARGO_TARGETS) env[`CARGO_TARGET_${t}_RUNNER`] = join(this.hooks, 'crew-cargo-runner');
    return { dir, env };
  }

  /** The folders a run must see (the hooks, and the report folders under their root): kept in sight under a sandbox's private /tmp (#46). */
  places(): string[] {
    return [this.hooks, this.root];
  }

  /** Removes the hooks and the report folders: the job's runs of command criteria are over. */
  async dispose(): Promise<void> {
    for (const d of [this.hooks, this.root]) await rm(d, { recursive: true, force: true }).catch(() => undefined);
  }

  /** What the run left in its folder (regular files only, never followed through a link), then the folder is gone. */
  async collect(run: ReportRun): Promise<ReportFile[]> {
    const out: ReportFile[] = [];
    try {
      const entries = await readdir(run.dir);
      for (const name of entries.slice(0, MAX_REPORT_FILES + 1)) {
        const path = join(run.dir, name);
        const st = await lstat(path);
        if (!st.isFile()) {
          out.push({ name, bytes: 0, problem: 'it is not a regular file' });
          continue;
        }
        if (st.size > MAX_REPORT_BYTES) {
          out.push({ name, bytes: st.size, problem: `it is ${st.size} bytes, over the ${MAX_REPORT_BYTES} crew reads` });
          continue;
        }
        const fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
        try {
          // One byte more than lstat saw, up to the limit: a file still growing shows as larger.
          const buf = Buffer.alloc(Math.min(MAX_REPORT_BYTES, st.size) + 1);
          const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
          out.push(
            bytesRead > st.size
              ? { name, bytes: bytesRead, problem: 'it was still being written when crew read it' }
              : { name, bytes: bytesRead, text: buf.subarray(0, bytesRead).toString('utf8') },
          );
        } finally {
          await fh.close();
        }
      }
    } finally {
      await rm(run.dir, { recursive: true, force: true }).catch(() => undefined);
    }
    return out;
  }
}
