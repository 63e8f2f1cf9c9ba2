import type { Waiting } from '../domain/run-state';
import { settlement, type RunView } from '../domain/run-state';
import type { Surface } from '../domain/surface';
import { money } from './cost';
import { utcTime } from './spend';
import { budgetStopAccepts } from '../domain/budgets';
import { codeSpan } from '../text/markdown';

/**
 * A budget's end in words (#52): what was spent against which budget, what is done and where the
 * work is, and the three answers. The question crew posts and the plan comment's line. Pure.
 */

export type BudgetWait = Extract<Waiting, { kind: 'budget' }>;

const KEY = { run: '`budgets.run`', task: '`budgets.task`', day: '`budgets.day`', month: '`budgets.month`' } as const;

/** "the run has spent $0.0123 (15,000 tokens) of `budgets.run` ($0.01, 14,000 tokens)" */
export function budgetSpentText(w: Omit<BudgetWait, 'commentId'>): string {
  if (w.limit === 'run' || w.limit === 'task') {
    const tokens = (n: number) => `${n.toLocaleString('en-US')} tokens`;
    return `${w.limit === 'run' ? 'the run' : (w.task ?? 'a task')} has spent ${money(w.spentUsd)}${w.tokens ? ` (${tokens(w.tokens.spent)})` : ''} of ${KEY[w.limit]} (${money(w.budgetUsd)}${w.tokens ? `, ${tokens(w.tokens.budget)}` : ''})`;
  }
  const when = w.limit === 'day' ? 'today (UTC)' : 'this month (UTC)';
  return `the repository's runs have spent ${money(w.spentUsd)} ${when}, against ${KEY[w.limit]} of ${money(w.budgetUsd)}${w.resetsAt ? `; the count starts again at ${utcTime(w.resetsAt)}` : ''}`;
}

/** Each task as the budget left it: done, stopped with its work on its branch, waiting to be re-planned, or not started. */
function budgetTaskLines(view: RunView, s: Surface, branchLink: (branch: string) => string): string[] {
  const lines: string[] = [];
  for (const t of view.tasks.values()) {
    if (t.replacedBy) continue;
    const where = s.link(t.branch, branchLink(t.branch), true);
    const state = settlement(t);
    if (state === 'done') lines.push(`- ✅ ${t.id}: done, on ${where}`);
    else if (state === 'failed') lines.push(`- ❌ ${t.id}: ${t.status}${t.headSha ? `, its work on ${where}` : ''}`);
    else if (t.pendingReplan) lines.push(`- 🔁 ${t.id}: ${t.status}, to be re-planned${t.headSha ? `; its work so far is on ${where}` : ''}`);
    else if (t.status === 'running' || t.status === 'retrying')
      lines.push(`- ⏳ ${t.id}: still running; it stops at the end of its attempt and pushes its work to ${where}`);
    else if ((t.parallel ?? 1) > 1 && !t.headSha) {
      // Parallel attempts (#50) held at the budget: each one's work is on its own branch; those that ended on their own wait to be judged.
      const done = t.candidates?.length ?? 0;
      lines.push(
        `- ⏸ ${t.id}: its ${t.parallel} parallel attempts stopped, each one's work so far on its own branch (from ${where})${done ? `; ${done} ended on ${done === 1 ? 'its' : 'their'} own and ${done === 1 ? 'waits' : 'wait'} to be judged with the others` : ''}`,
      );
    } else if (t.headSha)
      lines.push(
        `- ⏸ ${t.id}: stopped, its work so far committed on ${where}${t.changedFiles.length ? ` (${t.changedFiles.length} file${t.changedFiles.length === 1 ? '' : 's'})` : ''}`,
      );
    else lines.push(`- ◻️ ${t.id}: not started`);
  }
  return lines;
}

/** Where the run stopped, in words after "stopped at a budget" (nothing: in its tasks' work). */
export function budgetStopWhere(w: Pick<BudgetWait, 'at'>): string {
  return w.at ? { planning: ' while planning', review: ' in the critic', replan: ' while re-planning', integration: ' while merging the tasks' }[w.at] : '';
}

const list = (ids: string[]) => ids.join(', ');

/** What is kept, where the run stopped. */
function keptText(w: Omit<BudgetWait, 'commentId'>, s: Surface): string {
  if (w.at === 'planning')
    return w.intakeKept === false
      ? 'crew was still planning (reading the issue), so no task has started and nothing of planning is kept yet: going on reads the issue again, with your answers so far.'
      : "crew was still planning, so no task has started. What planning settled is kept (intake's reading of the issue, and your answers: nothing is asked again).";
  if (w.at === 'review') return "Nothing is lost: every task's work is done and integrated; the critic stopped before its verdict.";
  if (w.at === 'integration' && w.conflict)
    return `Nothing is lost: every task's work is done and on its branch. Merging ${w.conflict.task} conflicts with the work before it in ${w.conflict.files.map((f) => s.modelText(codeSpan(f))).join(', ')}, and the resolver stopped before it merged them; the integration branch was not changed.`;
  return `Nothing is lost: every task's work so far is committed and pushed to its branch.${w.replan ? ` crew was re-planning ${list(w.replan.tasks)}, which failed, when the budget ran out.` : ''}`;
}

/** The `/crew continue` line: what going on does, where the run stopped. */
function goOnLine(w: Omit<BudgetWait, 'commentId'>, s: Surface): string {
  const another = `with another ${KEY.run} to spend from here; ${s.command('continue', '$N')} gives it $N more instead;`;
  const replan = w.replan ? `re-plan ${list(w.replan.tasks)} and ` : '';
  if (w.at === 'planning') return `- ${s.command('continue')} — go on planning, ${another}`;
  if (w.at === 'review') return `- ${s.command('continue')} — the critic judges again, ${another}`;
  if (w.at === 'integration')
    return `- ${s.command('continue')} — the resolver merges ${w.conflict?.task ?? 'the task'} again (or crew merges a fix you pushed to a task branch first), ${another}`;
  if (w.limit === 'day' || w.limit === 'month')
    return `- ${s.command('continue')} — ${replan}go on from the work on the branches, once ${KEY[w.limit]} has room (after the reset, or raise it in \`.github/crew.yml\`); ${s.command('continue', '$N')} also gives the run $N more to spend;`;
  if (w.limit === 'task')
    return `- ${s.command('continue')} — ${replan}go on from the work on the branch, ${w.task ?? 'the task'} with a fresh ${KEY.task}; ${s.command('continue', '$N')} also gives the run $N more to spend;`;
  return `- ${s.command('continue')} — ${replan}go on from the work on the branches, ${another}`;
}

/** The question crew posts when a budget ends the run's work (in its tasks, while planning or re-planning, in the resolver or the critic). */
export function budgetQuestion(view: RunView, w: Omit<BudgetWait, 'commentId'>, s: Surface, branchLink: (branch: string) => string, marker: string): string {
  const accepts = budgetStopAccepts(w);
  const nothingToAccept =
    w.at === 'planning' ? 'there is no plan and no work yet' : "the tasks' branches conflict, so there is no integrated work to open a pull request with";
  return [
    `${s.bold('crew stopped at a budget')}: ${budgetSpentText(w)}. ${keptText(w, s)}`,
    ...(w.at === 'planning' ? [] : ['', ...budgetTaskLines(view, s, branchLink)]),
    '',
    'Reply with one of:',
    goOnLine(w, s),
    ...(accepts
      ? [
          `- ${s.command('accept')} — open the pull request with what exists: the critic does not judge it, and the pull request says its criteria were not checked;`,
        ]
      : []),
    `- ${s.command('abort')} — end the run; its branches are cleaned up as a failed run's are.`,
    '',
    ...(accepts ? [] : [`${s.command('accept')} has nothing to take ${w.at === 'planning' ? 'while planning' : 'here'}: ${nothingToAccept}.`, '']),
    'Only people with write access can decide. Nothing new starts until then.',
    marker,
  ].join('\n');
}

/** The plan comment's line while the run waits at a budget. */
export function budgetWaitLine(w: BudgetWait, s: Surface, asked: string): string {
  const answers = budgetStopAccepts(w)
    ? `${s.command('continue', '[$N]')}, ${s.command('accept')} or ${s.command('abort')}`
    : `${s.command('continue', '[$N]')} or ${s.command('abort')}`;
  return `${s.bold('Stopped at a budget')}${budgetStopWhere(w)}: ${budgetSpentText(w)} (${s.commentLink('what crew asked', asked)}). ${answers}.`;
}

/** At the top of a pull request accepted at a budget's end. */
export function acceptedAtBudgetBanner(acceptedBy: string, unfinished: string[]): string[] {
  return [
    `> [!WARNING]`,
    `> @${acceptedBy} accepted this with \`/crew accept\` when the run stopped at a budget: the critic did not judge it, so its done criteria are unmet as far as crew knows.${unfinished.length ? ` Not finished: ${unfinished.join(', ')}.` : ''} crew never merges an accepted pull request by itself.`,
    '',
  ];
}
