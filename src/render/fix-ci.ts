import type { CiCheck, FixCiState } from '../domain/fix-ci';
import { GITHUB, type Surface } from '../domain/surface';
import { codeSpan } from '../text/markdown';

/**
 * `fix_ci` in words: the attempts for the plan comment and the report, and the comments crew posts
 * on the pull request. Check and workflow names come from the repository's workflow files, so they
 * are shown as code and format nothing. Pure.
 */

const short = (sha: string) => sha.slice(0, 7);

function checkText(c: CiCheck, s: Surface): string {
  return `${codeSpan(c.job)} (${codeSpan(c.workflow)}, ${s.link('job', c.url)})`;
}

function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/**
 * One line per attempt, under a heading that counts them against `fix_ci_attempts` (as it was when
 * crew last counted), and a last line once they are used up; nothing when CI never failed on the
 * pull request. The plan comment and the report show it.
 */
export function renderFixCiAttempts(state: FixCiState, s: Surface = GITHUB): string[] {
  if (!state.attempts.length && !state.exhaustedNotedFor) return [];
  const of = state.limit === null ? '' : ` of ${state.limit}`;
  const lines = [`${s.bold('CI fixes')} (\`fix_ci\`): ${state.attempts.length}${of} attempts used.`, ''];
  for (const a of state.attempts) {
    const failed = list(a.checks.map((c) => checkText(c, s)));
    const what = a.outcome === 'requested' ? 'follow-up run requested' : 'no follow-up run started';
    lines.push(`- Attempt ${a.n} on ${short(a.headSha)}: ${failed} failed; ${what}.`);
  }
  if (state.exhaustedNotedFor) {
    lines.push('', `CI failed again on ${short(state.exhaustedNotedFor)} with no attempts left, so crew stopped fixing CI on this pull request.`);
  }
  return lines;
}

/** The comment when a failure comes after the last attempt: said once per head. */
export function fixCiExhaustedComment(check: CiCheck, headSha: string, max: number, s: Surface = GITHUB): string {
  return [
    `CI failed on ${short(headSha)}: ${checkText(check, s)}. crew has used all ${max} of its \`fix_ci_attempts\` on this pull request, so it stops here and will not push another fix for CI.`,
    '',
    `To go on: fix it by hand; or raise \`fix_ci_attempts\` in \`.github/crew.yml\` on the default branch and re-run the failed workflow; or start a new run with ${s.command('run')} on the issue.`,
  ].join('\n');
}
