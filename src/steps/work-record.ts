import type { Config } from '../config/schema';
import { BranchMoved, type WriteOptions } from '../ports';
import type { CommandRunner } from '../sandbox/command-runner';
import type { StepContext } from './context';
import type { Egress } from '../toolbox/egress';
import { recordCandidate, settleCandidates } from './parallel-attempts';
import { answerShutdown, attemptCommitMessage, recordFinal, recordHeld, recordRetry, type AttemptOutcome, type ChainOffer } from './task-results';
import type { BudgetStop } from './budget-stop';
import type { TakenTask } from './work-claim';
import { teamFreshness } from './work-toolbox';

/**
 * One attempt's work and crew's judgement of it, committed and pushed together so nothing is lost,
 * and recorded: a retry, the task's final result (which may chain the task it unblocked to this job:
 * returned), or, for a parallel attempt (#50), its candidate, judged with the others by the last leg.
 */
export async function recordAttempt(
  ctx: StepContext,
  config: Config,
  t: TakenTask,
  o: AttemptOutcome,
  job: { chain: ChainOffer; runner: CommandRunner | null | undefined; egress: Egress | null | undefined; heldAt?: BudgetStop | undefined },
  /** A parallel leg a budget ended (#50): what was spent, and why its worker never began, when it did not. */
  atBudget?: { spent: string; notBegun?: string | undefined },
): Promise<string | boolean | undefined> {
  const { issue, run } = t;
  const taskId = t.rec.id;
  await ctx.repo.commitAll(attemptCommitMessage(taskId, t.task.title, o), { allowEmpty: true });
  if (t.of > 1) {
    // A parallel attempt's retries stay on its own branch; only its last outcome is recorded, as a candidate.
    await ctx.remote.push(t.branch);
    const headSha = await ctx.repo.head();
    ctx.log.checkpoint('task-pushed');
    if (!o.final) return undefined;
    const all = await recordCandidate(ctx, t, o, headSha, atBudget);
    // Stopped before its end, as a task run once that stops at a shutdown request answers it: where its work is.
    if (o.seen.ending === 'shutdown' || o.cut) await answerShutdown(ctx, issue, run, t.leg, o, headSha);
    if (!all) return undefined;
    return settleCandidates(ctx, config, t, all, { ...job, sandboxWarning: o.sandboxWarning });
  }
  // The worker looked at the state between its turns: a write from that tip loses only if the tip moved since.
  const record = (headSha: string, carry?: WriteOptions['carry']) => {
    const options = { ...teamFreshness(), ...(carry ? { carry } : {}) };
    // A task a budget stopped waits with its work (#52): true when this write stopped the run, so the job asks.
    if (job.heldAt) return recordHeld(ctx, issue, run, taskId, { attempt: o.attempt, o, headSha }, job.heldAt, options);
    return o.final ? recordFinal(ctx, issue, run, taskId, o, headSha, job.chain, options) : recordRetry(ctx, issue, run, taskId, o, headSha, options);
  };
  const pushThenRecord = async () => {
    await ctx.remote.push(t.branch);
    const headSha = await ctx.repo.head();
    ctx.log.checkpoint('task-pushed');
    return record(headSha);
  };
  if (!ctx.state.carriesBranches) return (await pushThenRecord()) || undefined;
  // One push for the work and its record (#17 §3): both land, or neither. A branch another
  // worker of this task moved meanwhile takes the separate way, which rebases onto its push.
  const headSha = await ctx.repo.head();
  const recorded = await record(headSha, { branch: t.branch, sha: headSha }).catch((e: unknown) => {
    if (!(e instanceof BranchMoved)) throw e;
    ctx.log.info(`${t.branch} moved while ${taskId} worked; pushing it on its own first`);
    return pushThenRecord();
  });
  return recorded || undefined;
}
