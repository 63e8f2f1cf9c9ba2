import { sentence } from '../domain/surface';
import { taskOf } from '../state/run-files';
import { CrewError, type StepContext } from './context';
import type { TakenTask } from './work-claim';

/**
 * The leg's branch checked out: the run's base plus the work of every task it depends on, and the
 * leg's own earlier work when its branch exists (a resumed task). `startSha` is where the task's own
 * work starts, the base with its dependencies merged in: the files the task changed are counted from
 * there, on a resumed branch too (never from the base, which would count its dependencies' files).
 */
export async function checkoutTaskBranch(ctx: StepContext, t: TakenTask): Promise<{ startSha: string; resuming: boolean }> {
  const { view, task, rec, branch } = t;
  await ctx.remote.fetchCommit(view.run.base.sha);
  const depBranches = task.dependsOn.map((d) => taskOf(view, d).branch);
  // A task on its first attempt with no pushed work recorded has no branch yet, where a branch moves with its
  // record (one push carries both): nothing to ask. Every re-claim of a task whose worker was lost first looks
  // at its branch (takePushedResult): a pushed attempt counts, and work no record names (a save cut short
  // between its push and its write) becomes the task's headSha, so the attempt that follows fetches it. What is
  // left, a re-run of this very job after such a push, is BranchMoved at this job's write, which then rebases.
  // A parallel attempt's leg (#50) pushes apart from its record, and a leg run again after a cancel or a budget's stop
  // goes on from its own branch: always looked for.
  const noBranchYet =
    ctx.state.carriesBranches === true && t.of === 1 && rec.attempts <= 1 && rec.headSha === null && !rec.continued && depBranches.length === 0;
  const { missing } = noBranchYet ? { missing: [branch] } : await ctx.remote.fetch([branch, ...depBranches]);
  const resuming = !missing.includes(branch);
  const mergeDependencies = async () => {
    for (const dep of task.dependsOn) {
      const depBranch = taskOf(view, dep).branch;
      if (missing.includes(depBranch))
        throw new CrewError(
          `task ${t.rec.id}`,
          `the branch of ${dep} (${depBranch}) is missing, although ${dep} succeeded.`,
          `${sentence(ctx.surface.give('run'))} to start a fresh run.`,
          false,
        );
      const merged = await ctx.repo.merge(ctx.remote.tracking(depBranch), `crew: start ${t.rec.id} from ${dep}`);
      if (!merged.ok)
        throw new CrewError(
          `task ${t.rec.id}`,
          `the results of its dependencies conflict in ${merged.conflicts.join(', ')}.`,
          `Resolve the overlap in the plan and ${ctx.surface.give('run')} again.`,
          false,
        );
    }
  };
  await ctx.repo.checkoutNew(branch, view.run.base.sha);
  await mergeDependencies();
  const startSha = await ctx.repo.head();
  if (resuming) {
    await ctx.repo.checkoutNew(branch, ctx.remote.tracking(branch));
    // A dependency sent back by the critic may have moved on since this branch started.
    await mergeDependencies();
  }
  return { startSha, resuming };
}

/**
 * What the task's branch holds from earlier attempts, for the next attempt's prompt: the diff
 * stat since the task started, or, on a branch resumed in a new job (whose start is the base
 * plus its dependencies' work), the files earlier attempts recorded.
 */
export async function branchHolds(ctx: StepContext, startSha: string | null, recorded: string[]): Promise<string> {
  if (startSha) return (await ctx.repo.diffStat(startSha, 'HEAD')) || '(nothing yet)';
  return recorded.length ? recorded.map((f) => `- ${f}`).join('\n') : '(nothing yet)';
}
