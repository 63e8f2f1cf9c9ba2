import type { FileDiff } from '../domain/diff';
import { account, testKey, type TestRun } from '../domain/test-results';
import type { CommandRunner } from '../sandbox/command-runner';
import type { TestReports } from '../sandbox/test-reports/reports';
import type { StepContext } from './context';
import { isTestFile } from '../domain/tamper';
import { runWithReports } from '../toolbox/test-runs';

/**
 * A command criterion's tests, base against head (#32). A test that passed on the base and fails
 * here is run once more before it convicts anyone: one that passes again is flaky, not lost. The
 * critic judges the integrated head this way, and each of a task's parallel attempts (#50) too.
 */
export async function accountWithRerun(
  ctx: Pick<StepContext, 'repo' | 'log'>,
  c: { id: string; command: string },
  base: TestRun,
  head: TestRun,
  o: {
    runner: CommandRunner | undefined;
    reports: TestReports | undefined;
    timeoutMs: number;
    diff: FileDiff[];
    baseTree?: { hasTestFile: boolean; added: ReadonlySet<string> };
  },
): Promise<ReturnType<typeof account>> {
  const opts = { diff: o.diff, ...(o.baseTree ? { baseTree: o.baseTree } : {}) };
  const a = account(c, base, head, opts);
  const failedNow = a.changes.filter((x) => x.kind === 'lost' && x.after === 'failed');
  // Without a runner (no sandbox started) there is nothing to run again with.
  if (!failedNow.length || !o.runner) return a;
  ctx.log.info(
    `critic: ${failedNow.length} test(s) of ${c.id} passed on the base and fail here; running ${c.command} once more to tell a flaky test from a broken one`,
  );
  const again = await runWithReports(o.runner, o.reports, c.command, { cwd: ctx.repo.dir, timeoutMs: o.timeoutMs });
  const passedAgain = new Set(again.tests.kind === 'known' ? again.tests.tests.filter((t) => t.outcome === 'passed').map(testKey) : []);
  const flaky = new Set(failedNow.map((x) => testKey(x.test)).filter((k) => passedAgain.has(k)));
  return flaky.size ? account(c, base, head, { ...opts, flaky }) : a;
}

/** The files the change added, and whether the base's tree holds a test file (the head's files less those, and those it deleted). */
export async function baseTreeOf(ctx: Pick<StepContext, 'repo'>, files: FileDiff[]): Promise<{ hasTestFile: boolean; added: Set<string> }> {
  const added = new Set(files.filter((f) => f.status === 'added').map((f) => f.path));
  const hasTestFile =
    files.some((f) => f.status === 'deleted' && isTestFile(f.path)) || (await ctx.repo.listFiles()).some((p) => !added.has(p) && isTestFile(p));
  return { hasTestFile, added };
}
