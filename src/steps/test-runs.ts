import type { Criterion } from '../domain/criteria';
import { BaseRunSchema, type BaseRun } from '../domain/test-results';
import type { RunView } from '../domain/run-state';
import { homeEnv, type CommandRunner, type ProgramHome, type RunOptions } from '../sandbox/command-runner';
import type { TestReports } from '../sandbox/test-reports/reports';
import { runWithReports, type CommandRun } from '../toolbox/test-runs';
import { paths, readChecked } from '../state/run-files';
import { runFolder } from '../domain/refs';
import { nowIso, SEEN, type StepContext } from './context';
import { runSetup } from '../toolbox/sandbox-setup';
import { join } from 'node:path';

const tail = (text: string) => text.trimEnd().split('\n').slice(-15).join('\n').slice(-1500);

/**
 * Each command criterion as it ran on the run's base (#32): read from crew/state when an earlier
 * iteration ran it there, else run now. `fresh` lists the records made now, for the caller to keep on
 * crew/state with its judgment.
 *
 * The base runs out of the head's reach (#46): the head's tests and setup ran before, as the tool user,
 * in the job's checkout, home and temporary folder, and a file they leave there (`~/.npmrc` with
 * `node-options`, Python's `usercustomize.py`, the head's `node_modules`) changes how any later run goes.
 * So the base gets a checkout of its own at the base commit, inside a home and temporary folder made for
 * it (CommandRunner.programHome), and its own setup there (sandboxed, with the network setup on a
 * model-written tree has: a follow-up's base is a model's). Where that cannot be made, or its setup fails,
 * the base's tests are unknown, and said why; such a record is not kept, so a later iteration tries again.
 */
export async function baseRuns(
  ctx: StepContext,
  view: RunView,
  criteria: Criterion[],
  opts: {
    runner: CommandRunner;
    reports: TestReports | undefined;
    headSha: string;
    timeoutMs: number;
    head?: Map<string, CommandRun>;
    setup: { commands: string[]; network: RunOptions['network']; where: string };
  },
): Promise<{ runs: Map<string, BaseRun>; fresh: BaseRun[] }> {
  const { issue, run, base } = view.run;
  // Results this job's view already held (or a compare-and-swap write of new ones settles).
  const snap = await ctx.state.load(`${runFolder(issue, run)}/`, SEEN);
  const runs = new Map<string, BaseRun>();
  const todo: Criterion[] = [];
  for (const c of criteria) {
    const kept = readChecked(snap, paths.baseTests(issue, run, c.id), BaseRunSchema);
    if (kept && kept.command === c.command && kept.baseSha === base.sha) runs.set(c.id, kept);
    else todo.push(c);
  }
  const fresh: BaseRun[] = [];
  const record = (c: Criterion, r: CommandRun): BaseRun => ({
    criterion: c.id,
    command: c.command!,
    baseSha: base.sha,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    output: tail(r.output),
    tests: r.tests,
    at: nowIso(ctx),
  });
  // Nothing changed yet: the head is the base, and its runs are the base's.
  if (opts.headSha === base.sha && opts.head) {
    for (const c of todo) {
      const h = opts.head.get(c.id);
      if (h) fresh.push(record(c, h));
    }
  } else if (todo.length) {
    const notRun = (why: string) => {
      ctx.log.warn(`critic: the base's tests could not run: ${why}`);
      for (const c of todo)
        runs.set(c.id, record(c, { exitCode: null, timedOut: false, output: why, tests: { kind: 'unknown', why: `crew could not run them: ${why}` } }));
    };
    const place = await baseCheckout(ctx, opts.runner, base.sha).catch((e: Error) => e);
    if (place instanceof Error) notRun(`crew could not give the base a checkout, home and temporary folder of its own (${place.message.split('\n')[0]})`);
    else
      try {
        const at = { cwd: place.cwd, env: homeEnv(place.home) };
        const failed = await runSetup(ctx, opts.setup.commands, opts.timeoutMs, opts.runner, opts.setup.where, opts.setup.network, at);
        if (failed) notRun(`its setup failed: ${failed}`);
        else
          for (const c of todo) {
            ctx.log.info(`critic: running ${c.id} on the base (${base.sha.slice(0, 7)}), in a checkout and home of its own, once for this run: ${c.command}`);
            fresh.push(record(c, await runWithReports(opts.runner, opts.reports, c.command!, { ...at, timeoutMs: opts.timeoutMs })));
          }
      } finally {
        await place.home.dispose();
      }
  }
  for (const r of fresh) runs.set(r.criterion, r);
  return { runs, fresh };
}

/** A home made now (with its own TMPDIR), and a checkout of the base commit inside it: where the base's tests run. */
async function baseCheckout(ctx: StepContext, runner: CommandRunner, sha: string): Promise<{ home: ProgramHome; cwd: string }> {
  if (!runner.programHome) throw new Error('this sandbox cannot make a home of its own');
  const home = await runner.programHome((dir) => ctx.repo.checkoutCopy(sha, join(dir, BASE_CHECKOUT)));
  return { home, cwd: join(home.dir, BASE_CHECKOUT) };
}

/** The base's checkout's folder in its home. */
const BASE_CHECKOUT = 'base';
