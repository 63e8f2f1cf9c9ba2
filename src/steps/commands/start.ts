import { ConfigError, type Config } from '../../config/schema';
import { checkAttemptsRequest, type RunAttempts } from '../../domain/attempts';
import { sentence } from '../../domain/surface';
import { isTerminal, newRunRecord, type RunRecord } from '../../domain/run-state';
import type { CommentEvent } from '../../event';
import type { FollowUpMaterial } from '../../domain/follow-up';
import { planMarker, renderPlanComment } from '../../render/plan-comment';
import { paths, readRun, runNumbers, writeRun } from '../../state/run-files';
import { CrewError, loadView, nowIso, planLinks, SEEN, syncPlanComment, updateRun, type StepContext } from '../context';
import { planRun } from '../plan-run';
import { latestRun, setOutputs } from './common';
import { refuse, REPOSITORY_BUDGET } from './permission';
import { admission, type Admission } from '../spend-gate';

/** `/crew run` and `/crew plan`: a new run of the issue, its plan comment, and planning. */

/** What asks for a run: a comment, or a label or an assignment by a writer (`trigger_label`, `trigger_assignee`). */
export interface RunRequest {
  issue: { number: number; title: string; body: string };
  by: string;
  trigger: RunRecord['trigger'];
  /**
   * A person's pull request (`pull`): the run starts from its head and its pull request goes into
   * that branch. A follow-up: the run starts from crew's pull request's head, which goes into `branch`.
   */
  base?: { branch: string; sha: string; pull?: number };
  /** A follow-up run on crew's own pull request (steps/follow-up.ts): its record, the pull request it updates, and followup.json. */
  followUp?: { record: NonNullable<RunRecord['followUp']>; pr: NonNullable<RunRecord['pr']>; material: FollowUpMaterial };
  /** Where "crew is already working on this issue" goes, when not the issue (the pull request a follow-up was asked on). */
  replyOn?: number;
  /** Said where the request was made once the run exists, before planning (a follow-up's note on the pull request). */
  onCreated?: (run: number) => Promise<void>;
  /**
   * The ready tasks are dispatched to new workflow runs, not handed to this workflow run's `work`
   * matrix: for a job that has no `work` job after it (the end of another run starting a follow-up).
   */
  dispatch?: boolean;
  /** The words of the comment that asked (the /crew comment): planning reads its images too (#36). */
  comment?: string;
  /** Parallel attempts of each task the request asked for (`--attempts N`, the label `crew: best of N`, #50); else `attempts.parallel`. */
  attempts?: number;
}

/** Whether a run started (or this job's earlier attempt's run continued); when not, crew has said why, and `busy` names the run of the issue still working if that was why. */
export type Started = { started: true; run: number } | { started: false; busy?: number };

export function commentRequest(ctx: StepContext, ev: CommentEvent): RunRequest {
  return {
    issue: ev.issue,
    by: ev.comment.author.login,
    trigger: { commentId: ev.comment.id, createdAt: ev.comment.createdAt, workflowRunId: ctx.runId },
    comment: ev.comment.body,
  };
}

/**
 * The same request again: the same comment, or (for a label or an assignment) the same workflow run
 * re-run; for a failed CI run, the same job on the same CI run (one job may end a run and start a
 * follow-up for CI, in the workflow run that started the run it ends).
 */
function sameRequest(a: RunRecord['trigger'], b: RunRecord['trigger']): boolean {
  // A review's id and a comment's may be equal numbers: the kind of text counts too.
  if (b.commentId) return a.commentId === b.commentId && a.how === b.how;
  return !a.commentId && a.how === b.how && a.workflowRunId !== undefined && a.workflowRunId === b.workflowRunId && a.ciRunId === b.ciRunId;
}

/** The run's parallel attempts (#50): what the request asked for, within `attempts.max`, else `attempts.parallel`. */
function runAttempts(ctx: StepContext, config: Config['attempts'], asked: number | undefined): RunAttempts {
  if (asked === undefined) return { parallel: config.parallel, max: config.max };
  const ok = checkAttemptsRequest(asked, config.max);
  if (!ok.ok)
    throw new CrewError(
      'starting the run',
      `${ok.why}. The run did not start.`,
      `${sentence(ctx.surface.give('run'))} with \`--attempts\` from 1 to ${config.max}.`,
    );
  return { parallel: asked, max: Math.max(config.max, asked) };
}

/** Starts a run of the issue (or continues this job's earlier attempt's), and plans it; when it cannot, says why where it was asked. */
export async function startRun(ctx: StepContext, ev: RunRequest, mode: 'run' | 'plan'): Promise<Started> {
  const issue = ev.issue.number;
  const before = await checksBeforeRun(ctx, ev);
  const outcome = await writeStart(ctx, ev, mode, before);
  if (outcome.kind === 'refused') {
    await sayRefused(ctx, ev, outcome.admit);
    return { started: false };
  }
  if (outcome.kind === 'busy') {
    await sayBusy(ctx, ev, outcome.record);
    return { started: false, busy: outcome.record.run };
  }
  const run = outcome.record.run;
  ctx.log.checkpoint('run-created');
  ctx.working = { issue, run };
  await ensurePlanComment(ctx, issue, run, outcome.kind === 'existing');
  // A follow-up's comment still shows the run it took it over from: show the follow-up at once.
  if (outcome.kind === 'created' && ev.followUp) await syncPlanComment(ctx, issue, run);
  if (outcome.kind === 'created') await ev.onCreated?.(run);
  if (outcome.kind === 'existing' && outcome.record.phase === 'EXECUTING') {
    // Already planned by an earlier attempt of this job: hand on whatever is claimed for this workflow run.
    const view = await loadView(ctx, issue, run);
    if (!ev.dispatch)
      await setOutputs(
        ctx,
        issue,
        run,
        [...view.tasks.values()].filter((t) => t.status === 'running' && t.claim?.runId === ctx.runId).map((t) => t.id),
      );
    return { started: true, run };
  }
  const tasks = await planRun(ctx, issue, run, undefined, ev.dispatch ? 'dispatch' : 'this-run');
  if (!ev.dispatch) await setOutputs(ctx, issue, run, tasks);
  await syncPlanComment(ctx, issue, run);
  return { started: true, run };
}

/** What a run needs before its start is written: a readable configuration, a model, the attempts asked for, the base, whether the last planner died, and admission. */
async function checksBeforeRun(ctx: StepContext, ev: RunRequest): Promise<BeforeRun> {
  const issue = ev.issue.number;
  try {
    await ctx.config();
  } catch (e) {
    if (e instanceof ConfigError)
      throw new CrewError(
        'reading the configuration',
        `${e.message}\n\nThe run did not start.`,
        `Fix \`.github/crew.yml\` on the default branch, then ${ctx.surface.give('run')} again.`,
      );
    throw e;
  }
  ctx.model(); // fails now, with a clear message, if no key was given
  const config = await ctx.config();
  const attempts = runAttempts(ctx, config.attempts, ev.attempts);
  const baseBranch = ev.base?.branch ?? config.base_branch ?? (await ctx.forge.defaultBranch());
  // The base branch's head comes in the same answer as the state's first read (#31 §4).
  if (!ev.base?.sha) ctx.remote.expectHead?.(baseBranch);
  // Whether the run a PLANNING record belongs to has ended without planning: asked before the state write, outside it.
  const deadPlanners = new Set<string>();
  const previous = await latestRun(ctx, issue);
  const baseSha = ev.base?.sha ?? (await ctx.remote.head(baseBranch));
  if (previous?.phase === 'PLANNING' && previous.trigger.workflowRunId && (await ctx.forge.workflowRunActive(previous.trigger.workflowRunId)) === false)
    deadPlanners.add(`${previous.run}`);
  const stalePlanning = (r: RunRecord) => r.phase === 'PLANNING' && deadPlanners.has(`${r.run}`);
  if (!baseSha)
    throw new CrewError(
      'starting the run',
      `the base branch '${baseBranch}' does not exist or has no commits.`,
      `Push a first commit (or fix \`base_branch\` in \`.github/crew.yml\`), then ${ctx.surface.give('run')}.`,
    );
  const now = nowIso(ctx);
  // After the state's first read, from the same tip: the budgets and the rate cost no request (#52).
  const admit = await admission(ctx, { by: ev.by, automatic: ev.trigger.how === 'ci' });
  return { attempts, baseBranch, baseSha, stalePlanning, now, admit };
}

interface BeforeRun {
  attempts: RunAttempts;
  baseBranch: string;
  baseSha: string;
  stalePlanning: (r: RunRecord) => boolean;
  now: string;
  admit: Admission;
}

/** The write that starts the run: this job's earlier run again, the issue's run still working, a refusal, or a new run with its request. */
async function writeStart(ctx: StepContext, ev: RunRequest, mode: 'run' | 'plan', { attempts, baseBranch, baseSha, stalePlanning, now, admit }: BeforeRun) {
  const issue = ev.issue.number;
  const { value: outcome } = await ctx.state.update(`issue-${issue}/`, `issue #${issue}: start a run`, (tx) => {
    const last = runNumbers(tx, issue).at(-1);
    const lastRec = last !== undefined ? readRun(tx, issue, last) : undefined;
    // The same comment again (a re-run of this job) continues its own run.
    if (lastRec && sameRequest(lastRec.trigger, ev.trigger)) return { kind: 'existing' as const, record: lastRec };
    if (lastRec && !isTerminal(lastRec.phase) && !stalePlanning(lastRec)) return { kind: 'busy' as const, record: lastRec };
    // A run whose planner died (its workflow run is over) is taken over, not refused.
    if (lastRec && stalePlanning(lastRec)) return { kind: 'existing' as const, record: lastRec };
    if (admit.kind === 'refused') return { kind: 'refused' as const, admit };
    const k = (last ?? 0) + 1;
    const record = newRunRecord({
      issue,
      run: k,
      mode,
      title: ev.issue.title,
      requestedBy: ev.by,
      trigger: ev.trigger,
      base: { branch: baseBranch, sha: baseSha, ...(ev.base?.pull ? { pull: ev.base.pull } : {}) },
      now,
      host: ctx.job ? 'actions' : 'local',
      attempts,
      ...(ev.followUp ? { followUp: { record: ev.followUp.record, pr: ev.followUp.pr } } : {}),
    });
    if (admit.kind === 'admit' && admit.warning) record.spendWarning = admit.warning;
    if (ev.followUp) tx.write(paths.followUp(issue, k), `${JSON.stringify(ev.followUp.material, null, 2)}\n`);
    // The issue keeps one live plan comment: a follow-up takes over the comment of the run whose pull
    // request it continues, in this same write, so from here on only the newer run renders into it.
    const from = ev.followUp ? readRun(tx, issue, ev.followUp.record.fromRun) : undefined;
    if (from && from.planCommentId !== null) {
      record.planCommentId = from.planCommentId;
      writeRun(tx, { ...from, planCommentPassedTo: k }, now);
    }
    // The request is taken from the event payload: what the issue said when the maintainer asked.
    tx.write(paths.request(issue, k), `# ${ev.issue.title}\n\n${ev.issue.body}\n`);
    tx.write(
      paths.requestJson(issue, k),
      `${JSON.stringify({ title: ev.issue.title, body: ev.issue.body, ...(ev.comment ? { comment: ev.comment } : {}) }, null, 2)}\n`,
    );
    return { kind: 'created' as const, record: writeRun(tx, record, now) };
  });
  return outcome;
}

/** "crew is already working on this issue", said where the run was asked. */
async function sayBusy(ctx: StepContext, ev: RunRequest, r: RunRecord): Promise<void> {
  const issue = ev.issue.number;
  const what =
    r.phase === 'ESCALATING'
      ? 'waiting for answers to its questions'
      : r.phase === 'AWAITING_APPROVAL'
        ? `waiting for ${ctx.surface.command('approve')} or ${ctx.surface.command('revise')}`
        : r.phase.toLowerCase();
  const where = r.planCommentId ? ctx.surface.commentLink('the plan comment', ctx.forge.commentLink(issue, r.planCommentId)) : 'the plan comment';
  await ctx.forge.postComment(
    ev.replyOn ?? issue,
    ev.followUp?.record.source === 'ci'
      ? `CI failed on ${ev.base?.sha.slice(0, 7) ?? 'this pull request'} while crew is still working on issue #${issue} (run ${ctx.surface.runNumber(issue, r.run)}, ${what}). crew will look at this pull request's CI again when that run ends, and starts the fix (\`fix_ci\`) then if CI still fails; nothing is counted until it starts. Follow it in ${where}.`
      : ev.followUp
        ? `crew is still working on issue #${issue} (run ${ctx.surface.runNumber(issue, r.run)}, ${what}), so this follow-up did not start: two runs on one branch would push over each other. Follow it in ${where}, then ask again once it has finished; your review comments stay unresolved, so the next follow-up reads them.`
        : `crew is already working on this issue (run ${ctx.surface.runNumber(issue, r.run)}, ${what}). Follow it in ${where}; a new run can start once it has finished.`,
  );
}

/** A run past a repository budget or the person's rate: one comment where it was asked, once an hour (the rate per person and issue, a budget per issue), then a 👎. */
async function sayRefused(ctx: StepContext, ev: RunRequest, admit: Extract<Admission, { kind: 'refused' }>): Promise<void> {
  const on = ev.replyOn ?? ev.issue.number;
  ctx.log.info(`the run did not start: ${admit.why === 'budget' ? 'a repository budget is spent' : `@${ev.by} is past limits.runs_per_person_per_day`}`);
  // A review's id is not a comment's: only a comment in the conversation gets the 👎.
  const commentId = ev.trigger.commentId && !ev.trigger.how ? { commentId: ev.trigger.commentId } : {};
  // A budget's refusal is the repository's, not the person's: once an hour on the issue, whoever asks (#52).
  if (admit.why === 'budget') return refuse(ctx, { issue: on, login: ev.by, window: REPOSITORY_BUDGET, ...commentId }, admit.text);
  await refuse(ctx, { issue: on, login: admit.login, ...commentId }, admit.text);
}

/**
 * Posts the run's plan comment once and has its id recorded. When this job is a repeat
 * (an earlier attempt may have posted before recording the id), it first looks for
 * the comment by marker and author. The id rides in the job's next write of the run
 * (state/pending-plan-comment.ts): every read shows it from here on, and the job's end
 * records it if no write came (recordHeldPlanComments).
 */
export async function ensurePlanComment(ctx: StepContext, issue: number, run: number, repeat: boolean): Promise<void> {
  // Right after the run's start was written.
  const view = await loadView(ctx, issue, run, SEEN);
  if (view.run.planCommentId !== null) return;
  const found = repeat ? await ctx.forge.findComment(issue, planMarker(issue, run), await ctx.forge.botLogin()) : undefined;
  const ref = found ?? (await ctx.forge.postComment(issue, renderPlanComment(view, planLinks(ctx), ctx.surface)));
  // Posted but not yet recorded: a job that dies here leaves a comment only a search can find.
  if (!found) ctx.log.checkpoint('plan-comment-sent');
  if (ctx.planCommentIds) ctx.planCommentIds.hold(issue, run, ref.id);
  else
    await updateRun(ctx, issue, run, `plan comment ${ref.id}`, (rec, tx) => {
      if (rec.planCommentId === null) writeRun(tx, { ...rec, planCommentId: ref.id }, nowIso(ctx));
    });
  ctx.log.checkpoint('plan-comment-posted');
}
