import { followUpItems, handPushed, MAX_THREADS, type FollowUpMaterial, type FollowUpThread } from '../domain/follow-up';
import { commandText } from '../domain/commands';
import { runOfIntegrationBranch } from '../domain/refs';
import type { RunRecord, RunView } from '../domain/run-state';
import type { PullInfo, ReviewThread } from '../ports';
import { parseJson, paths, readRun, readView, runNumbers, writeRun } from '../state/run-files';
import { renderedMarkup, sanitize } from '../text/sanitize';
import { foundImages, triggerText } from '../domain/images';
import { spend } from './caps';
import { startRun, type Started } from './commands/start';
import { loadView, nowIso, updateRun, type StepContext } from './context';

/** What asks for a follow-up run on crew's own pull request. */
export interface FollowUpRequest {
  /** crew's open pull request. */
  pull: number;
  /** The writer who asked (a permission check already passed), or whoever the caller acts for. */
  by: string;
  /** Untrusted text: what to change (a comment's words, a review's body, a failed check's log tail). Sanitised here. */
  feedback: string;
  /** Criteria the caller states outright (e.g. "the `test` check passes"); intake keeps each. Untrusted, sanitised here. */
  criteria?: string[];
  source: 'comment' | 'review' | 'ci';
  /** The event that asked (RunRecord['trigger']): the same trigger again continues the same run. */
  trigger: RunRecord['trigger'];
  /** Why the follow-up starts, when no person asked in words (a failed CI): the pull request note opens with it. */
  why?: string;
  /** Its tasks go to new workflow runs (a job with no `work` job after it: the end of a run). */
  dispatch?: boolean;
}

/** Review text's limits on the way to a prompt: each comment, each hunk, the feedback. */
const COMMENT_CHARS = 2_000;
const HUNK_CHARS = 1_500;
const FEEDBACK_CHARS = 6_000;

/**
 * The one entry point for a follow-up run: crew's open pull request gets new commits on its own
 * branch for the feedback, every unresolved review thread a writer took part in, and the stated
 * criteria, judged with all the pull request's criteria again; the same pull request, report
 * comment and issue are updated. A comment on the pull request says why when it cannot start
 * (closed, not crew's, a run of the issue still active, nothing asked), and it returns not started.
 */
export async function startFollowUp(ctx: StepContext, req: FollowUpRequest): Promise<Started> {
  const pull = await ctx.forge.getPull(req.pull);
  const own = runOfIntegrationBranch(pull.headRef);
  if (!own || pull.fromFork) {
    await ctx.forge.postComment(req.pull, `This pull request's branch (\`${pull.headRef}\`) is not one crew opened, so crew does not follow up on it.`);
    return { started: false };
  }
  const issue = own.issue;
  if (pull.state !== 'open') {
    await ctx.forge.postComment(
      req.pull,
      `This pull request is ${pull.merged ? 'merged' : 'closed'}, so crew does not follow up on it. Comment \`/crew run\` on issue #${issue} to start a new run, which opens a new pull request.`,
    );
    return { started: false };
  }
  const from = await pullsRun(ctx, issue, req.pull);
  if (!from?.view.plan) {
    await ctx.forge.postComment(
      req.pull,
      `crew has no finished run of issue #${issue} with this pull request on its state branch, so it cannot follow up here. Comment \`/crew run\` on issue #${issue} to start a new run.`,
    );
    return { started: false };
  }
  const { threads, leftOut } = await writersThreads(ctx, req.pull);
  const material: FollowUpMaterial = {
    feedback: sanitize(req.feedback, FEEDBACK_CHARS),
    criteria: (req.criteria ?? []).map((c) => sanitize(c, 500)).filter(Boolean),
    threads: threads.map((t) => t.material),
    kept: from.view.plan.criteria,
    leftOut,
    source: req.source,
    images: foundImages([
      { shown: renderedMarkup(req.feedback), in: triggerText(req.trigger, req.pull) },
      ...threads.flatMap((t) => t.said).map((words) => ({ shown: renderedMarkup(words), in: { kind: 'review-comments' as const, pull: req.pull } })),
    ]),
  };
  if (!followUpItems(material).length) {
    await ctx.forge.postComment(
      req.pull,
      'crew found nothing to follow up on: no words after the command and no unresolved review comment by someone with write access. Say what to change, for example `/crew fix rename the option to --dry-run`, or leave review comments first.',
    );
    return { started: false };
  }
  const k = (from.view.run.followUp?.k ?? 0) + 1;
  const request = from.request ?? { title: from.view.run.title, body: '' };
  const record = {
    pull: req.pull,
    k,
    fromRun: from.view.run.run,
    branch: pull.headRef,
    source: req.source,
    reviewedSha: from.view.run.followUp?.reviewedSha ?? from.view.run.base.sha,
    crewHead: from.view.run.review?.headSha ?? null,
    threads: threads.map((t) => t.record),
    added: [],
  };
  const pr = from.view.run.pr!;
  return startRun(
    ctx,
    {
      issue: { number: issue, title: request.title, body: request.body },
      by: req.by,
      trigger: req.trigger,
      // A follow-up of a stacked run (crew's pull request into a person's branch) stays stacked: never merged into it by crew.
      base: { branch: pull.baseRef, sha: pull.headSha, ...(from.view.run.base.pull ? { pull: from.view.run.base.pull } : {}) },
      followUp: { record, pr, material },
      replyOn: req.pull,
      onCreated: (run) => announce(ctx, pull, req, { issue, run, k, threads: threads.length, handPushed: handPushed(record, pull.headSha) }),
      ...(req.dispatch ? { dispatch: true } : {}),
    },
    'run',
  );
}

/** The newest run of the issue with this pull request, its view and the first run's request (what the issue said). */
async function pullsRun(ctx: StepContext, issue: number, pull: number): Promise<{ view: RunView; request?: { title: string; body: string } } | undefined> {
  const snap = await ctx.state.load(`issue-${issue}/`);
  for (const k of [...runNumbers(snap, issue)].reverse()) {
    const rec = readRun(snap, issue, k);
    if (rec?.pr?.number !== pull) continue;
    const view = readView(snap, issue, k);
    if (!view) return undefined;
    return { view, request: parseJson<{ title: string; body: string }>(snap, paths.requestJson(issue, k)) };
  }
  return undefined;
}

/**
 * The unresolved review threads, each with the comments people with write access wrote in it
 * (collaborator-permission check, once per login per job; a failed check leaves the comment out),
 * sanitised like issue text. crew's own replies and bots' comments are left out; a `/crew` line
 * counts for the words after the command.
 */
async function writersThreads(
  ctx: StepContext,
  pull: number,
): Promise<{ threads: Array<{ record: FollowUpThread; material: FollowUpMaterial['threads'][number]; said: string[] }>; leftOut: number }> {
  const all = (await ctx.forge.reviewThreads?.(pull)) ?? [];
  const me = (await ctx.forge.botLogin()).toLowerCase();
  const writer = new Map<string, boolean>();
  const isWriter = async (login: string) => {
    const key = login.toLowerCase();
    if (!writer.has(key)) {
      const p = await ctx.forge.permissionOf(login).catch((e: unknown) => {
        ctx.log.warn(`the permission check for @${login} failed (${e instanceof Error ? e.message : String(e)}); their review comments are left out`);
        return 'none' as const;
      });
      writer.set(key, p === 'admin' || p === 'write');
    }
    return writer.get(key)!;
  };
  const out: Array<{ record: FollowUpThread; material: FollowUpMaterial['threads'][number]; said: string[] }> = [];
  let open = 0;
  for (const t of all.filter((x: ReviewThread) => !x.resolved)) {
    const said: Array<{ author: string; body: string }> = [];
    const raw: string[] = [];
    for (const c of t.comments) {
      if (c.author.type !== 'User' || c.author.login.toLowerCase() === me || !(await isWriter(c.author.login))) continue;
      const words = c.body.trimStart().startsWith('/crew') ? commandText(c.body) : c.body;
      const body = sanitize(words, COMMENT_CHARS);
      if (body) said.push({ author: c.author.login, body });
      raw.push(words);
    }
    if (!said.length) continue;
    open++;
    if (out.length >= MAX_THREADS) continue;
    const first = t.comments[0]!;
    const path = sanitize(first.path, 300);
    out.push({
      record: { rootId: t.rootId, path, line: first.line, replied: false },
      material: { rootId: t.rootId, path, line: first.line, diffHunk: sanitize(first.diffHunk, HUNK_CHARS), comments: said },
      said: raw,
    });
  }
  return { threads: out, leftOut: open - out.length };
}

/** The note on the pull request that the follow-up started, with where to follow it. */
async function announce(
  ctx: StepContext,
  pull: PullInfo,
  req: FollowUpRequest,
  a: { issue: number; run: number; k: number; threads: number; handPushed: boolean },
): Promise<void> {
  const view = await loadView(ctx, a.issue, a.run);
  const where = view.run.planCommentId
    ? ctx.surface.commentLink('the plan comment', ctx.forge.commentLink(a.issue, view.run.planCommentId))
    : `issue #${a.issue}`;
  const checks = req.criteria?.length ?? 0;
  const asked = req.why
    ? `${req.why} The failed check${checks === 1 ? '' : 's'}${a.threads ? ` and ${a.threads} unresolved review thread${a.threads === 1 ? '' : 's'}` : ''}`
    : `asked by @${req.by}: ${a.threads ? `your words and ${a.threads} unresolved review thread${a.threads === 1 ? '' : 's'}` : 'your words'}`;
  const become = req.why && checks === 1 && !a.threads ? 'becomes a new done criterion' : 'become new done criteria';
  const lines = [
    `crew starts follow-up ${a.k} on this pull request (run ${ctx.surface.runNumber(a.issue, a.run)} of #${a.issue})${req.why ? '. ' : ', '}${asked} ${become} next to the earlier ones, and the critic judges them all again. New commits go on \`${pull.headRef}\`; nothing is force-pushed. Follow it in ${where}.`,
  ];
  if (a.handPushed)
    lines.push(
      '',
      `The branch has commits crew did not make (its head is ${pull.headSha.slice(0, 7)}); the follow-up starts from them and keeps them. The critic's earlier pass no longer counts for merging: only a pass on the new head does.`,
    );
  await spend(ctx, a.issue, a.run, { comments: 1 });
  await ctx.forge.postComment(req.pull, lines.join('\n'));
}

/**
 * After the critic passed a follow-up: a reply in every review thread it addressed, naming the
 * commit on the branch that addresses it, once each (recorded, so a re-run does not reply twice).
 * crew resolves no thread: people do.
 */
export async function replyInThreads(ctx: StepContext, view: RunView, headSha: string): Promise<void> {
  const f = view.run.followUp;
  if (!f) return;
  const { issue, run } = view.run;
  for (const t of f.threads.filter((x) => !x.replied)) {
    try {
      await ctx.forge.replyInThread?.(
        f.pull,
        t.rootId,
        `Addressed in ${headSha} (follow-up ${f.k}, run ${ctx.surface.runNumber(issue, run)} of #${issue}); the critic judged it with every other criterion. Resolve this thread if you agree.`,
      );
    } catch (e) {
      ctx.log.warn(`could not reply in the review thread ${t.rootId}: ${(e as Error).message}`);
      continue;
    }
    await updateRun(ctx, issue, run, `replied in review thread ${t.rootId}`, (rec, tx) => {
      if (!rec.followUp) return;
      writeRun(
        tx,
        { ...rec, followUp: { ...rec.followUp, threads: rec.followUp.threads.map((x) => (x.rootId === t.rootId ? { ...x, replied: true } : x)) } },
        nowIso(ctx),
      );
    });
  }
}
