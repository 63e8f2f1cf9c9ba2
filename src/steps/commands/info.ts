import { isTerminal } from '../../domain/run-state';
import type { CommentEvent } from '../../event';
import { helpComment } from '../../render/messages';
import { runNumbers } from '../../state/run-files';
import { remember, retrospect } from '../retrospect';
import { recordIn, syncPlanComment, type StepContext } from '../context';
import { latestRun } from './common';
import { askUnasked } from './replies';
import { sentence } from '../../domain/surface';
import { strayBranchLines } from '../../render/cleanup';
import { findStrayBranches } from '../cleanup';
import { repositorySpend } from '../spend-gate';
import { spendComment } from '../../render/spend';

/** `/crew status`, `/crew help`, `/crew retro` and `/crew remember`. */

/** `/crew retro`: a full retrospective of the newest finished run, posted again if there was one. */
export async function retro(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  if (!last || !isTerminal(last.phase)) {
    await ctx.forge.postComment(
      issue,
      last
        ? `Run ${ctx.surface.runNumber(issue, last.run)} is still ${last.phase.toLowerCase()}; \`/crew retro\` looks back at a finished run. Try again when it ends.`
        : `There is no run on this issue to look back at. ${sentence(ctx.surface.give('run'))} first.`,
    );
    return;
  }
  ctx.model(); // fails now, with a clear message, if no key was given
  await retrospect(ctx, issue, last.run, true);
}

/**
 * `/crew status`: the plan comment brought up to date (or a question that was never posted, asked
 * now), and, when there are any, the repository's `crew/` branches that belong to no open run, and
 * its spend today and this month against `budgets.day` and `budgets.month` (when one is set), in one comment.
 */
export async function status(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  const said: string[] = [];
  if (!last) said.push(`There is no crew run on this issue yet. ${sentence(ctx.surface.give('run'))} to start one.`);
  else if (!(await askUnasked(ctx, last))) await syncPlanComment(ctx, issue, last.run);
  const strays = await findStrayBranches(ctx).catch((e: unknown) => {
    ctx.log.warn(`could not list crew's branches: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  });
  if (strays?.length) said.push(strayBranchLines(strays, 30, ctx.surface).join('\n'));
  // The spend is said where a budget is set, or where crew comments anyway; otherwise status only refreshes the plan comment.
  const spend = await repositorySpend(ctx).catch((e: unknown) => {
    ctx.log.warn(`could not sum the repository's spend: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  });
  const budgeted = spend && (spend.day.budgetUsd !== undefined || spend.month.budgetUsd !== undefined);
  if (spend && (budgeted || said.length)) said.push(spendComment(spend, ctx.surface));
  if (said.length) await ctx.forge.postComment(issue, said.join('\n\n'));
}

/** `/crew help`, and any word crew does not know. */
export async function help(ctx: StepContext, ev: CommentEvent, unknownWord?: string): Promise<void> {
  await ctx.forge.postComment(ev.issue.number, helpComment(unknownWord));
}

/** `/crew remember <n>`: memory candidate n of the newest retrospective becomes a pull request to the knowledge base. */
export async function rememberCandidate(ctx: StepContext, ev: CommentEvent, n: number): Promise<void> {
  const issue = ev.issue.number;
  const snap = await ctx.state.load(`issue-${issue}/`);
  const runs = runNumbers(snap, issue)
    .map((k) => recordIn(snap, issue, k))
    .filter(Boolean);
  await ctx.forge.postComment(issue, await remember(ctx, issue, runs, n, ev.comment.author.login));
}
