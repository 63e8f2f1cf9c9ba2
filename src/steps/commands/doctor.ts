import { diagnose } from '../../domain/doctor';
import type { CommentEvent } from '../../event';
import { gatherFacts } from '../../doctor/gather';
import { doctorComment } from '../../doctor/report';
import type { StepContext } from '../context';
import { findStrayBranches } from '../cleanup';
import { repositorySpend } from '../spend-gate';
import { spendSentence } from '../../render/spend';
import { budgetVerdict } from '../../domain/spend';
import { runnerToolchains } from '../../doctor/runner-toolchains';

/**
 * `/crew doctor`: the repository's setup as this job's token can see it, one line per check with its
 * fix, in one comment. The job's token cannot read the admin-only settings; those lines say where to
 * look, and that `npx crew doctor` with an admin's token reads them.
 */
export async function doctor(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const issue = ev.issue.number;
  if (!ctx.repositorySettings) {
    await ctx.forge.postComment(issue, 'crew doctor checks a repository on GitHub; in a local run there is nothing of GitHub to check.');
    return;
  }
  const config = await ctx.config().catch(() => undefined);
  const facts = await gatherFacts(ctx.repositorySettings, {
    asking: 'job',
    // The key's presence only: a provider other than anthropic signs in otherwise (diagnose says so).
    jobHasKey: ctx.settings.anthropicApiKey.length > 0,
    strays: async () => (await findStrayBranches(ctx))?.map((b) => b.branch),
    spend: async () => {
      const summary = await repositorySpend(ctx);
      return { says: spendSentence(summary), near: budgetVerdict(summary, 0).kind !== 'ok' };
    },
    // This job runs on the runner image the work jobs get, before any setup steps: its programs are theirs.
    runnerToolchains,
  });
  if (config && facts.config.ok && facts.config.value) facts.config.value.provider = config.provider;
  await ctx.forge.postComment(issue, doctorComment(facts, diagnose(facts)));
}
