import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { mirrorOf } from '../../src/eval/repos';
import { findMirrors } from '../../src/eval/suite-check';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';

/**
 * `npm run eval:check` on two of the suite's instances, against mirrored copies of their
 * repositories (never inside this repository: CREW_EVAL_MIRRORS, or a `.mirror` folder above it).
 * Both are Python and need no setup, so nothing leaves the machine. Without the mirrors it is skipped, saying why.
 */

const exec = promisify(execFile);
const IDS = ['hukkin__tomli-229', 'tkem__cachetools-387'];
const REPOS = ['hukkin/tomli', 'tkem/cachetools'];
const mirrors = findMirrors(PROJECT_ROOT);
const absent = REPOS.filter((r) => !mirrorOf(r, mirrors));
const why = absent.length ? `no mirror of ${absent.join(', ')} in ${mirrors ?? 'CREW_EVAL_MIRRORS (unset) or a .mirror folder above the project'}` : '';

let cache: string | undefined;
afterAll(async () => {
  if (cache) await rm(cache, { recursive: true, force: true });
});

describe('npm run eval:check', () => {
  it.skipIf(absent.length > 0)(`holds for ${IDS.join(' and ')} against their mirrors${why ? ` (skipped: ${why})` : ''}`, async () => {
    cache = await mkdtemp(join(tmpdir(), 'crew-eval-check-cache-'));
    const r = await exec('npx', ['tsx', 'scripts/eval-check.ts', '--ids', IDS.join(',')], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, CREW_EVAL_CACHE: cache, ...(mirrors ? { CREW_EVAL_MIRRORS: mirrors } : {}), CREW_EVAL_GIT_BASE: 'file:///nonexistent/' },
    });
    for (const id of IDS) expect(r.stdout).toContain(`✓ ${id} (`);
    expect(r.stdout).toContain('2 held, 0 failed, 0 skipped.');
  });

  it('skips an instance whose repository has no mirror, naming it, and fails when nothing was checked', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'crew-eval-no-mirrors-'));
    try {
      const r = await exec('npx', ['tsx', 'scripts/eval-check.ts', '--ids', IDS[0]!], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, CREW_EVAL_MIRRORS: empty, CREW_EVAL_CACHE: join(empty, 'cache') },
      }).then(
        () => ({ code: 0, stdout: '' }),
        (e: { code: number; stdout: string }) => e,
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`- ${IDS[0]}: skipped: no mirror of hukkin/tomli in ${empty}; run with --network to clone it from GitHub`);
      expect(r.stdout).toContain('0 held, 0 failed, 1 skipped.');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
