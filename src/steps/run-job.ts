import { syncPlanComment, type StepContext } from './context';
import { recordHeldPlanComments } from './plan-comment/held-ids';
import { reportFailure } from './report-failure';

/**
 * One job's life around its step, the same for the Action's jobs (main.ts) and local mode's
 * (local/engine.ts), in an order that matters:
 * 1. the step runs with its plan comment checks put off to its end, and those are settled before
 *    anything below (ctx.planComment.withChecksAtEnd);
 * 2. a failure is reported on the run and the issue (reportFailure), then thrown on for the entry to
 *    end the job as failed;
 * 3. plan comment ids the job still holds are recorded, after the failure's write, which may carry them;
 * 4. a failover after the step's last sync still reaches the plan comment;
 * 5. the job summary lists the job's rate-limit waits and failovers.
 */
export async function runJob(ctx: StepContext, step: (ctx: StepContext) => Promise<void>): Promise<void> {
  try {
    await ctx.planComment.withChecksAtEnd(() => step(ctx));
  } catch (error) {
    await reportFailure(ctx, error);
    throw error;
  } finally {
    await recordHeldPlanComments(ctx);
    await noteLateFailover(ctx);
    await summarizeRateLimits(ctx);
    await summarizeFailovers(ctx);
  }
}

/** A failover after the step's last plan-comment sync (a model call at its very end) still reaches the plan comment. */
async function noteLateFailover(ctx: StepContext): Promise<void> {
  const { issue, run } = ctx.settings;
  if (!issue || !run || !ctx.planComment.unnotedFailovers()) return;
  try {
    await syncPlanComment(ctx, issue, run);
  } catch (e) {
    ctx.log.warn(`could not note the failover in the plan comment: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The job summary says where this job's model calls went when the primary provider hit a limit. */
async function summarizeFailovers(ctx: StepContext): Promise<void> {
  const failovers = ctx.modelFailovers?.() ?? [];
  if (!failovers.length) return;
  const lines = failovers.map((f) => `- ${f.at.slice(11, 19)} UTC: ${f.from} was ${f.reason} past its retries; crew went on with ${f.to}.`);
  await summary(ctx, `### Model failover\n\n${lines.join('\n')}\n`);
}

/** The job summary lists every wait GitHub's rate limits imposed, as the job log does. */
async function summarizeRateLimits(ctx: StepContext): Promise<void> {
  const waits = ctx.forge.rateLimitWaits();
  if (!waits.length) return;
  const lines = waits.map(
    (w) =>
      `- ${w.at.slice(11, 19)} UTC: waited ${w.seconds} s for GitHub's ${w.kind === 'primary' ? 'rate limit' : 'secondary rate limit'} (${w.request.replace(/^(\S+) https?:\/\/[^/]+/, '$1 ')})`,
  );
  await summary(
    ctx,
    `### GitHub rate limits\n\nGitHub rate-limited this job ${waits.length} time${waits.length === 1 ? '' : 's'}; crew waited and carried on.\n\n${lines.join('\n')}\n`,
  );
}

async function summary(ctx: StepContext, markdown: string): Promise<void> {
  try {
    await ctx.summary(markdown);
  } catch (e) {
    ctx.log.warn(`could not write the job summary: ${e instanceof Error ? e.message : String(e)}`);
  }
}
