import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toolchainSummary } from '../../support/toolchain-summary';
import { missingToolchain, pretendedMissing, programForToolUser } from '../../support/toolchains';

const PROJECT_ROOT = join(__dirname, '..', '..', '..');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crew-toolchains-'));
  await chmod(dir, 0o755);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A folder with mode `mode` holding an executable `name` with mode `fileMode`. */
async function folder(path: string, mode: number, name: string, fileMode = 0o755): Promise<string> {
  const d = join(dir, path);
  await mkdir(d, { recursive: true });
  await writeFile(join(d, name), '#!/bin/sh\n');
  await chmod(join(d, name), fileMode);
  await chmod(d, mode);
  return d;
}

describe('which programs the sandbox’s tool user can run (tests/support/toolchains.ts)', () => {
  it('only one in a folder on PATH that other users may enter, executable by them: root’s own (as rustup’s under /root) do not count', async () => {
    const closed = await folder('home/.cargo/bin', 0o700, 'cargo');
    const open = await folder('usr/bin', 0o755, 'cargo');
    expect(programForToolUser('cargo', `${closed}:${open}`)).toBe(join(open, 'cargo'));
    expect(programForToolUser('cargo', closed)).toBeUndefined();
    // The folder is open but one above it is not.
    const inside = await folder('private/open', 0o755, 'go');
    await chmod(join(dir, 'private'), 0o700);
    expect(programForToolUser('go', inside)).toBeUndefined();
    // Executable by its owner and group only.
    expect(programForToolUser('gofmt', await folder('usr/group', 0o755, 'gofmt', 0o750))).toBeUndefined();
    // An open link to a program in a closed folder (a /usr/local/bin/cargo pointing to root's rustup).
    const links = await folder('usr/local/bin', 0o755, 'other');
    await symlink(join(closed, 'cargo'), join(links, 'cargo'));
    expect(programForToolUser('cargo', links)).toBeUndefined();
    expect(programForToolUser('missing', `${open}:${links}`)).toBeUndefined();
  });
});

describe('pretending a toolchain is missing (CREW_TEST_WITHOUT)', () => {
  it('names it as missing, with the reason and its install command', async () => {
    vi.stubEnv('CREW_TEST_WITHOUT', 'go, cargo');
    expect(await missingToolchain('go')).toEqual({
      name: 'go',
      why: 'go is taken as missing: CREW_TEST_WITHOUT names it',
      install: 'apt-get install golang-go',
    });
    expect(await missingToolchain('cargo')).toMatchObject({ name: 'cargo', install: 'apt-get install cargo rustc' });
  });

  it('a toolchain another one needs: pytest without python3 is wanting python3', async () => {
    vi.stubEnv('CREW_TEST_WITHOUT', 'python3');
    expect(await missingToolchain('pytest')).toMatchObject({ name: 'python3', install: 'apt-get install python3' });
    expect(await missingToolchain('python3-testsuite')).toMatchObject({ name: 'python3' });
  });

  it('a name the tests do not know is an error that lists the ones they do', () => {
    expect(() => pretendedMissing('go,golang')).toThrow(
      'CREW_TEST_WITHOUT names "golang": the toolchains the tests know are go, cargo, python3, pytest, python3-testsuite',
    );
    expect([...pretendedMissing('')]).toEqual([]);
  });
});

describe('the line that ends npm test', () => {
  it('names each test skipped and why, then each toolchain not found, how many tests wanted it, and how to install it; nothing when none was skipped', () => {
    const go = { name: 'go' as const, install: 'apt-get install golang-go', why: 'no go (apt-get install golang-go)' };
    const long = `t.test.ts › ${'x'.repeat(200)}`;
    expect(
      toolchainSummary([
        { ...go, test: 'a.test.ts › one' },
        { name: 'pytest', install: 'apt-get install python3-pytest', test: 'b.test.ts › two', why: 'no pytest' },
        { ...go, test: long },
      ]),
    ).toEqual([
      'Tests skipped for want of a toolchain (tests/support/toolchains.ts):',
      '  ↓ a.test.ts › one: no go (apt-get install golang-go)',
      '  ↓ b.test.ts › two: no pytest',
      `  ↓ ${long.slice(0, 99)}…: no go (apt-get install golang-go)`,
      'skipped for want of go: 2 (apt-get install golang-go); pytest: 1 (apt-get install python3-pytest)',
    ]);
    expect(toolchainSummary([])).toEqual([]);
  });

  const FIXTURE = 'tests/unit/toolchains/fixture/needs-toolchains.fixture.ts';
  /** crew's vitest configuration run on the fixture's four tests, two of which want go and one cargo. */
  const vitest = (env: Record<string, string>) => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|FORCE_COLOR$|CREW_REQUIRE_TOOLCHAINS$)/.test(k)));
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(PROJECT_ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', join(__dirname, 'fixture', 'vitest.config.ts')],
        { cwd: PROJECT_ROOT, env: { ...base, NO_COLOR: '1', CREW_TEST_WITHOUT: 'go,cargo', ...env }, timeout: 120_000 },
        (e, stdout, stderr) => resolve({ code: e ? Number(e.code ?? 1) : 0, stdout, stderr }),
      );
    });
  };

  it('without go and cargo, the run passes and its last lines name the tests skipped and why, then count them by toolchain', async () => {
    const r = await vitest({});
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout.trimEnd().split('\n').slice(-5)).toEqual([
      'Tests skipped for want of a toolchain (tests/support/toolchains.ts):',
      `  ↓ ${FIXTURE} › needs go: go is taken as missing: CREW_TEST_WITHOUT names it (apt-get install golang-go)`,
      `  ↓ ${FIXTURE} › needs go and cargo: go is taken as missing: CREW_TEST_WITHOUT names it (apt-get install golang-go)`,
      `  ↓ ${FIXTURE} › needs cargo: cargo is taken as missing: CREW_TEST_WITHOUT names it (apt-get install cargo rustc)`,
      'skipped for want of go: 2 (apt-get install golang-go); cargo: 1 (apt-get install cargo rustc)',
    ]);
    expect(r.stdout).toMatch(/Tests\s+1 passed \| 3 skipped/);
  }, 120_000);

  it('under CREW_REQUIRE_TOOLCHAINS=1 (CI), a test that wants one fails, saying why', async () => {
    const r = await vitest({ CREW_REQUIRE_TOOLCHAINS: '1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('go is taken as missing: CREW_TEST_WITHOUT names it (apt-get install golang-go); CREW_REQUIRE_TOOLCHAINS=1 (set by .ci/run)');
    expect(r.stdout).toMatch(/Tests\s+3 failed \| 1 passed/);
  }, 120_000);
});
