import type { Criterion } from '../domain/criteria';
import {
  compareWithBase,
  decide,
  leftOutWith,
  settledByAloneRuns,
  tryOrder,
  verdictOfRun,
  type LocalisableTask,
  type Localisation,
  type LocalisationRun,
  type RunSite,
} from '../domain/localisation';
import type { RunView } from '../domain/run-state';
import type { CommandRunner } from '../sandbox/command-runner';
import { redact } from '../text/redact';
import { integrationBranchOf, type StepContext } from './context';
import { describeTest, failingKeys, testKey, type BaseRun, type TestRun } from '../domain/test-results';
import type { TestReports } from '../sandbox/test-reports/reports';
import { runWithReports } from '../toolbox/test-runs';
import { planOf } from '../state/run-files';
import { codeUnderTest, failingTestFiles, IMPORT_DEPTH, ownersOf, reachable, type TestOwners } from '../domain/test-owners';

/** What a failed command printed on the integrated branch, the tests it reported, and its run on the base when the critic has it (#32). */
export interface FailedCommand {
  criterion: Criterion;
  exitCode: number | null;
  output: string;
  tests?: TestRun;
  base?: BaseRun;
}

/** The identities of the tests a run failed, when its runner reported them; and those among them the base did not fail, as people read them. */
function failing(tests: TestRun | undefined): { failingTests?: string[] } {
  return tests?.kind === 'known' ? { failingTests: [...failingKeys(tests.tests)] } : {};
}
function convicting(tests: TestRun | undefined, base: TestRun | undefined): { convicting?: string[] } {
  if (tests?.kind !== 'known' || base?.kind !== 'known') return {};
  const before = failingKeys(base.tests);
  const seen = new Set<string>();
  const out = tests.tests.filter((t) => t.outcome === 'failed' && !before.has(testKey(t)) && !seen.has(testKey(t)) && seen.add(testKey(t)));
  return out.length ? { convicting: out.map(describeTest) } : {};
}

const tail = (text: string) => text.trimEnd().split('\n').slice(-15).join('\n').slice(-1500);

const integratedOf = (f: FailedCommand) => ({ exitCode: f.exitCode, output: f.output, ...failing(f.tests) });

/**
 * Runs each failed command criterion again, in the sandbox, on the base, on each task's branch
 * alone, and (where that does not settle it) on the integrated work without one task at a time,
 * within `localisation_seconds`. No model is asked. The workspace is back at `headSha` after.
 */
export async function localise(
  ctx: StepContext,
  view: RunView,
  failed: FailedCommand[],
  opts: { runner: CommandRunner; reports?: TestReports; headSha: string; budgetSeconds: number; commandTimeoutMs: number },
): Promise<Localisation[]> {
  if (!failed.length || opts.budgetSeconds <= 0) return [];
  const { issue, run, base } = view.run;
  const plan = planOf(view);
  const tasks: LocalisableTask[] = plan.tasks
    .filter((t) => !view.tasks.get(t.id)?.replacedBy)
    .map((t) => ({ id: t.id, dependsOn: t.dependsOn, changedFiles: view.tasks.get(t.id)?.changedFiles ?? [] }));
  const branchOf = (id: string) => view.tasks.get(id)?.branch ?? ctx.branches.task(issue, run, id);
  const deadline = ctx.clock.now().getTime() + opts.budgetSeconds * 1000;
  const left = () => deadline - ctx.clock.now().getTime();
  const runs = new Map<string, LocalisationRun[]>(failed.map((f) => [f.criterion.id, []]));
  const open = new Set(failed.map((f) => f.criterion.id));

  let missing: string[] = [];
  const runAll = async (site: RunSite, checkout: () => Promise<string | null>, only: (f: FailedCommand) => boolean = () => true) => {
    const targets = failed.filter((f) => open.has(f.criterion.id) && only(f));
    if (!targets.length || left() <= 0) return;
    const refused = await checkout();
    for (const f of targets) {
      const list = runs.get(f.criterion.id)!;
      if (refused || left() <= 0) {
        list.push({ site, exitCode: null, timedOut: false, output: refused ?? 'the time for localisation ran out', verdict: 'not-run' });
        continue;
      }
      ctx.log.info(`critic: localising ${f.criterion.id} on ${site.kind === 'base' ? 'the base' : `${site.kind} ${site.task}`}`);
      const r = await runWithReports(opts.runner, opts.reports, f.criterion.command!, {
        cwd: ctx.repo.dir,
        timeoutMs: Math.max(1000, Math.min(opts.commandTimeoutMs, left())),
      });
      const known = failing(r.tests);
      const baseRun = list.find((x) => x.site.kind === 'base' && x.verdict === 'fails');
      const verdict = verdictOfRun({ exitCode: r.exitCode, timedOut: r.timedOut, output: r.output, ...known }, site.kind === 'base' ? undefined : baseRun);
      list.push({
        site,
        exitCode: r.exitCode,
        timedOut: r.timedOut,
        output: r.output,
        verdict,
        ...known,
        ...(verdict === 'fails' ? convicting(r.tests, f.base?.tests) : {}),
      });
    }
  };
  // The base's run the critic already has (once per run and criterion): not run again.
  for (const f of failed)
    if (f.base) {
      const known = failing(f.base.tests);
      const verdict = verdictOfRun({ exitCode: f.base.exitCode, timedOut: f.base.timedOut, output: f.base.output, ...known }, undefined);
      runs
        .get(f.criterion.id)!
        .push({ site: { kind: 'base' }, exitCode: f.base.exitCode, timedOut: f.base.timedOut, output: f.base.output, verdict, ...known });
    }
  const detach = (sha: string) => async () => (await ctx.repo.checkoutDetached(sha), null);

  // Localisation only advises: a git or sandbox error here leaves what is not settled undecided (the
  // critic model's attribution is used), says why in the table, and never fails the judgment.
  let stopped: string | undefined;
  try {
    ({ missing } = await ctx.remote.fetch(tasks.filter((t) => t.changedFiles.length).map((t) => branchOf(t.id))));
    await runAll({ kind: 'base' }, detach(base.sha), (f) => !f.base);
    for (const f of failed) if (decide(tasks, runs.get(f.criterion.id)!, integratedOf(f)).kind === 'before') open.delete(f.criterion.id);
    const order = tryOrder(tasks, failed.map((f) => f.output).join('\n'));
    for (const id of order) {
      const branch = branchOf(id);
      await runAll({ kind: 'alone', task: id }, async () =>
        missing.includes(branch) ? `its branch ${branch} is missing` : (await ctx.repo.checkoutDetached(ctx.remote.tracking(branch)), null),
      );
    }
    for (const f of failed) {
      const list = runs.get(f.criterion.id)!;
      const failingBase = list.find((r) => r.site.kind === 'base' && r.verdict === 'fails');
      // Settled, or the base fails too and the output cannot tell the failures apart: leaving tasks out cannot either.
      if (settledByAloneRuns(tasks, list, integratedOf(f)) || (failingBase && compareWithBase(failingBase, integratedOf(f)) === 'unknown'))
        open.delete(f.criterion.id);
    }
    // Only a combination fails: leave one task out at a time (with the tasks built on it, whose branches hold its work).
    if (order.length > 1)
      for (const id of order) {
        const keep = order.filter((t) => !leftOutWith(tasks, id).has(t));
        await runAll({ kind: 'without', task: id }, async () => {
          await ctx.repo.checkoutDetached(base.sha);
          for (const t of keep) {
            if (missing.includes(branchOf(t))) return `the branch of ${t} is missing`;
            const merged = await ctx.repo.merge(ctx.remote.tracking(branchOf(t)), `crew: localise without ${id}`);
            if (!merged.ok) return `the other tasks do not merge without it (${merged.conflicts.join(', ') || 'merge failed'})`;
          }
          return null;
        });
      }
  } catch (e) {
    stopped = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    ctx.log.warn(`critic: localisation stopped (${stopped}); the critic model's attribution is used for what it had not settled`);
  } finally {
    await ctx.repo.checkoutNew(integrationBranchOf(ctx, view.run), opts.headSha);
  }
  const out: Localisation[] = [];
  for (const f of failed) {
    const list = runs.get(f.criterion.id)!;
    const outcome = decide(tasks, list, integratedOf(f));
    if (stopped && outcome.kind === 'undecided') outcome.why = `localisation stopped: ${redact(stopped)}`;
    if (outcome.kind === 'before') {
      const owners = await ownersOfBefore(ctx, view, f, opts.headSha);
      if (owners?.tasks.length) outcome.owners = owners;
    }
    out.push({
      criterion: f.criterion.id,
      command: f.criterion.command!,
      base: base.sha,
      runs: list.map((r) => ({ ...r, output: tail(r.output) })),
      outcome,
    });
  }
  return out;
}

/**
 * A failure that was there before crew's changes (#50): the tasks whose files are the code the
 * failing tests exercise, read from the integrated branch's files. Undefined when git cannot
 * tell (the failure then goes to a person, as any failure no task owns).
 */
async function ownersOfBefore(ctx: StepContext, view: RunView, f: FailedCommand, headSha: string): Promise<TestOwners | undefined> {
  try {
    const files = new Set(await ctx.repo.listFiles());
    const tests = failingTestFiles(failing(f.tests).failingTests, f.output, files);
    if (!tests.length) return undefined;
    const texts = new Map<string, string | undefined>();
    for (let depth = 0, frontier = tests; depth <= IMPORT_DEPTH && frontier.length; depth++) {
      for (const p of frontier) texts.set(p, await ctx.repo.readFileAt(headSha, p));
      frontier = reachable(tests, (p) => texts.get(p), files).filter((p) => !texts.has(p));
    }
    const code = codeUnderTest(tests, (p) => texts.get(p), files);
    const plan = planOf(view);
    return ownersOf(
      plan.tasks
        .filter((t) => !view.tasks.get(t.id)?.replacedBy)
        .map((t) => ({
          id: t.id,
          files: t.files,
          changedFiles: view.tasks.get(t.id)?.changedFiles ?? [],
          text: [t.title, t.description, ...t.criteria].join('\n'),
        })),
      tests,
      code,
    );
  } catch (e) {
    ctx.log.warn(`critic: crew could not read which code the failing tests of ${f.criterion.id} exercise (${(e as Error).message})`);
    return undefined;
  }
}
