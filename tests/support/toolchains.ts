import { execFile } from 'node:child_process';
import { realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { TestContext } from 'vitest';

/**
 * The toolchains beyond Node that some tests run (#45). Every such test asks here, through
 * `needToolchains`, and is skipped with the reason and the install command when this machine lacks
 * one; toolchain-summary.ts counts those skips at the end of `npm test`. CI (.ci/run) installs them
 * and sets CREW_REQUIRE_TOOLCHAINS=1, which turns such a skip into a failure. CREW_TEST_WITHOUT=go,pytest
 * pretends the named ones are missing (docs/developing.md).
 *
 * The tests run these programs in crew's sandbox, as its tool user (src/sandbox/command-runner.ts):
 * a system user of its own, with the test process's PATH. So a program counts only where a user who
 * is neither its owner nor in its group may run it: root's rustup or pyenv under /root does not.
 */
export const TOOLCHAINS = ['go', 'cargo', 'python3', 'pytest', 'python3-testsuite'] as const;
export type Toolchain = (typeof TOOLCHAINS)[number];

export interface MissingToolchain {
  name: Toolchain;
  why: string;
  /** The command that installs it on Debian, as .ci/run does. */
  install: string;
}

declare module 'vitest' {
  interface TaskMeta {
    /** Set when needToolchains skips the test: read in the main process by toolchain-summary.ts. */
    missingToolchain?: { name: Toolchain; install: string };
  }
}

export const PRETEND_VARIABLE = 'CREW_TEST_WITHOUT';
export const REQUIRE_VARIABLE = 'CREW_REQUIRE_TOOLCHAINS';

/** Whether a user other than the file's owner, and outside its group, may run it: x for others on it and on every folder above it. */
function othersMayRun(path: string): boolean {
  const othersX = (p: string) => (statSync(p).mode & 0o001) !== 0;
  const foldersOpen = (p: string) => {
    for (let d = dirname(p); ; d = dirname(d)) {
      if (!othersX(d)) return false;
      if (d === dirname(d)) return true;
    }
  };
  try {
    const real = realpathSync(path);
    return foldersOpen(path) && foldersOpen(real) && statSync(real).isFile() && othersX(real);
  } catch {
    return false;
  }
}

/** Where the sandbox's tool user finds `program` on PATH, or undefined. */
export function programForToolUser(program: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const file = join(dir, program);
    if (othersMayRun(file)) return file;
  }
  return undefined;
}

const run = promisify(execFile);

/** `python -I -c code` as the tool user would run it: isolated, so no PYTHONPATH and no user site-packages of root's. */
const pythonRuns = (python: string, code: string) =>
  run(python, ['-I', '-c', code], { env: { PATH: process.env.PATH ?? '' }, timeout: 30_000 }).then(
    (r) => r.stdout.trim(),
    () => undefined,
  );

const toolPython = () => programForToolUser('python3');

async function testsuitePackage(): Promise<string> {
  const python = toolPython();
  const version = python ? await pythonRuns(python, 'import sys; print("%d.%d" % sys.version_info[:2])') : undefined;
  return `apt-get install libpython${version ?? '3.X'}-testsuite`;
}

const notForToolUser = (program: string) => `no ${program} on PATH that the sandbox's tool user can run (root's own, as rustup's, are out of its reach)`;

const KNOWN: Record<
  Toolchain,
  { needs?: Toolchain; install: string | (() => Promise<string>); check: () => Promise<string | undefined> | string | undefined }
> = {
  go: { install: 'apt-get install golang-go', check: () => (programForToolUser('go') ? undefined : notForToolUser('go')) },
  cargo: {
    install: 'apt-get install cargo rustc',
    check: () => ['cargo', 'rustc'].map((p) => (programForToolUser(p) ? undefined : notForToolUser(p))).find(Boolean),
  },
  python3: { install: 'apt-get install python3', check: () => (toolPython() ? undefined : notForToolUser('python3')) },
  pytest: {
    needs: 'python3',
    install: 'apt-get install python3-pytest',
    check: async () => ((await pythonRuns(toolPython()!, 'import pytest')) === undefined ? `${toolPython()} cannot import pytest` : undefined),
  },
  'python3-testsuite': {
    needs: 'python3',
    install: testsuitePackage,
    check: async () =>
      (await pythonRuns(toolPython()!, 'import test.test_textwrap')) === undefined
        ? `${toolPython()} has no test package of its own (test.test_textwrap)`
        : undefined,
  },
};

/** The toolchains CREW_TEST_WITHOUT names; a name the tests do not know is an error that lists the ones they do. */
export function pretendedMissing(value = process.env[PRETEND_VARIABLE] ?? ''): Set<Toolchain> {
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(TOOLCHAINS as readonly string[]).includes(n));
  if (unknown.length)
    throw new Error(`${PRETEND_VARIABLE} names ${unknown.map((n) => `"${n}"`).join(', ')}: the toolchains the tests know are ${TOOLCHAINS.join(', ')}`);
  return new Set(names as Toolchain[]);
}

const found = new Map<Toolchain, Promise<string | undefined>>();

/** Why `name` (or a toolchain it needs) is missing on this machine, with its install command; undefined when it is here. */
export async function missingToolchain(name: Toolchain): Promise<MissingToolchain | undefined> {
  const t = KNOWN[name];
  const before = t.needs ? await missingToolchain(t.needs) : undefined;
  if (before) return before;
  const why = pretendedMissing().has(name)
    ? `${name} is taken as missing: ${PRETEND_VARIABLE} names it`
    : await (found.get(name) ?? found.set(name, Promise.resolve(t.check())).get(name)!);
  return why ? { name, why, install: typeof t.install === 'string' ? t.install : await t.install() } : undefined;
}

/**
 * Skips the test, naming the toolchain it lacks and how to install it, unless every one of `names` is here.
 * Under CREW_REQUIRE_TOOLCHAINS=1 (.ci/run) the test fails instead: in CI nothing is skipped for want of one.
 */
export async function needToolchains(ctx: TestContext, ...names: Toolchain[]): Promise<void> {
  for (const name of names) {
    const missing = await missingToolchain(name);
    if (!missing) continue;
    const text = `${missing.why} (${missing.install})`;
    if (process.env[REQUIRE_VARIABLE] === '1')
      throw new Error(`${text}; ${REQUIRE_VARIABLE}=1 (set by .ci/run) lets no test be skipped for want of a toolchain`);
    ctx.task.meta.missingToolchain = { name: missing.name, install: missing.install };
    ctx.skip(text);
  }
}
