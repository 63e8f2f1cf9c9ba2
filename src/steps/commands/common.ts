import { type RunRecord } from '../../domain/run-state';
import { readRun, runNumbers } from '../../state/run-files';
import { handedOn, workLegs, type StepContext } from '../context';

/** What every command handler shares: the route job's outputs, the newest run, the reply length. */

/** A maintainer's answer or feedback reaches prompts like the issue does: sanitised, and at most this long. */
export const REPLY_CHARS = 10_000;

/**
 * The matrix for the work job. With nothing to start the work job is skipped, and so is
 * advance unless `advance` asks for it (a run whose remaining step is to finish).
 */
export async function setOutputs(ctx: StepContext, issue: number | '', run: number | '', tasks: string[], advance = false): Promise<void> {
  const go = tasks.length > 0 || advance;
  if (go && issue !== '' && run !== '') handedOn(ctx, issue, run);
  ctx.output('issue', go ? String(issue) : '');
  ctx.output('run', go ? String(run) : '');
  // Each parallel attempt of a task (#50) is a leg of the matrix.
  ctx.output('tasks', JSON.stringify(issue !== '' && run !== '' ? await workLegs(ctx, issue, run, tasks) : tasks));
}

export async function latestRun(ctx: StepContext, issue: number): Promise<RunRecord | undefined> {
  const snap = await ctx.state.load(`issue-${issue}/`);
  const last = runNumbers(snap, issue).at(-1);
  return last === undefined ? undefined : readRun(snap, issue, last);
}
