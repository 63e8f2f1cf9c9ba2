import { RunBudgetSpent } from '../agents/run-budget';
import { runOfIntegrationBranch } from '../domain/refs';
import { failureComment } from '../render/messages';
import { StateFormatError } from '../state/run-files';
import { CapReached } from './caps';
import { CrewError, failRun, syncPlanComment, type StepContext } from './context';
import { ModelError } from '../ports';
import { postedByCrew } from '../text/markdown';

/** Where a failure should be reported: the issue, and the run if one is known. */
function failureTarget(ctx: StepContext): { issue?: number; run?: number } {
  // The run this job was last working on: a job's own run, or a follow-up it started (the end of a run that looked at CI).
  if (ctx.working) return ctx.working;
  if (ctx.settings.issue) return { issue: ctx.settings.issue, run: ctx.settings.run };
  if (ctx.event.kind === 'comment' || ctx.event.kind === 'issue') return { issue: ctx.event.issue.number };
  // The merge gate failing is reported on the run's issue (found from the PR's head) when it can be.
  if (ctx.event.kind === 'pull') {
    // fix_ci: a CI run on crew's branch, whether or not GitHub listed its pull request.
    const heads = [...ctx.event.pulls.map((p) => p.headRef), ...(ctx.event.ci?.headBranch ? [ctx.event.ci.headBranch] : [])];
    const head = heads.map(runOfIntegrationBranch).find(Boolean);
    if (head) return { issue: head.issue };
    // A `/crew` review or review comment on someone's pull request: said on that pull request.
    return ctx.event.comment ? { issue: ctx.event.comment.issue.number } : {};
  }
  // A dispatch names its issue; the run is left as it is, so `/crew resume` can carry on once the cause is fixed.
  const issue = Number(ctx.event.inputs.issue);
  return Number.isInteger(issue) && issue > 0 ? { issue } : {};
}

/**
 * Any failure of a step ends in a comment that says what happened and what to do next.
 * crew failing (not the work) leaves the run resumable from the phase it was in; a state
 * file crew cannot read is left exactly as it is, for a person to repair.
 */
export async function reportFailure(ctx: StepContext, error: unknown): Promise<void> {
  // A cap stopped the run and said so in its one final comment.
  if (error instanceof CapReached) return;
  const crew = error instanceof CrewError ? error : undefined;
  const damaged = error instanceof StateFormatError ? error : undefined;
  const model = error instanceof ModelError ? error : undefined;
  const budget = error instanceof RunBudgetSpent ? error : undefined;
  const step =
    crew?.step ??
    (damaged
      ? 'reading the run state'
      : model || budget
        ? `the ${ctx.settings.step} step, calling ${model?.service ?? 'the Anthropic API'}`
        : `the ${ctx.settings.step} step`);
  const message =
    crew?.message ??
    damaged?.message ??
    (model || budget ? `${(model ?? budget)!.message}.` : `an unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  const { issue, run } = failureTarget(ctx);
  if (!issue) return;
  // A failure on crew's own comment (a personal token's comments start the route job) is logged
  // only: a failure comment, crew's own again, would start the same failure again.
  if (ctx.event.kind === 'comment' && postedByCrew(ctx.event.comment.body)) {
    ctx.log.warn(`crew failed on its own comment in ${step}: ${message}`);
    return;
  }
  const tryIt = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (e) {
      ctx.log.warn(`could not ${what}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  let resumable = false;
  if (run && !damaged) {
    await tryIt(
      'record the failure in the run state',
      async () => (resumable = await failRun(ctx, issue, run, step, message.split('\n')[0]!, { resumable: crew?.resumable ?? true })),
    );
    await tryIt('update the plan comment', () => syncPlanComment(ctx, issue, run));
  }
  const s = ctx.surface;
  const resumeHint = `${s.give('resume')} to carry on from where the run stopped, or ${s.command('run')} to start afresh.`;
  const next = crew
    ? `${crew.next}${resumable && !s.namesACommand(crew.next) ? ` Then ${resumeHint}` : ''}`
    : damaged
      ? damaged.next
      : budget
        ? `Raise \`budgets.run\` in \`.github/crew.yml\` on the default branch, then ${resumeHint}`
        : model && (resumable || ctx.settings.step === 'route')
          ? model.service === 'the Anthropic API'
            ? `Once the Anthropic API answers again (https://status.anthropic.com), ${s.give('resume')} to carry on from where it stopped.`
            : `Once ${model.service} answers again (check the provider's credentials and quotas in the workflow log), ${s.give('resume')} to carry on from where it stopped.`
          : resumable
            ? `${s.seeTheLog}. Once the cause is fixed (or if it was a passing fault), ${resumeHint}`
            : `${s.seeTheLog}, then ${s.give('run')} to try again.`;
  await tryIt('post the failure comment', () => ctx.forge.postComment(issue, failureComment(step, message, ctx.forge.runLink(), next, s)));
}
