import type { StrayBranch } from '../domain/retention';
import type { BranchCleanup } from '../domain/run-state';
import { GITHUB, type Surface } from '../domain/surface';
import { codeSpan } from '../text/markdown';

/**
 * Cleaning up after runs, in words: the one comment about a run whose branches crew kept or could not
 * delete, and the list of `crew/` branches that belong to no open run (`/crew status`, and `crew
 * doctor` later). Names from commits and branches are someone else's text: shown as code, they
 * mention nobody and format nothing. Pure.
 */

const list = (items: string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`);
const short = (sha: string) => sha.slice(0, 7);

/** The comment on the issue when crew kept some of a run's branches or GitHub refused to delete them; undefined when there is nothing to say. */
export function cleanupComment(issue: number, run: number, c: BranchCleanup, s: Surface = GITHUB): string | undefined {
  if (!c.kept.length && !c.refused) return undefined;
  const lines = [s.bold(`Branches of run ${s.runNumber(issue, run)}`), ''];
  if (c.deleted.length) lines.push(`The run has ended, so crew deleted ${list(c.deleted.map(codeSpan))}.`, '');
  for (const k of c.kept) {
    const who = k.people.length
      ? `${list(k.people.map(codeSpan))} committed to it`
      : k.shas.length
        ? 'someone pushed to it while crew was deleting it'
        : 'crew could not check every commit on it';
    const commits = k.shas.length ? ` (${list(k.shas.map((sha) => codeSpan(short(sha))))})` : '';
    lines.push(
      `- ${codeSpan(k.branch)} is kept: ${who}${commits}, and crew never deletes a branch with someone else's work on it. Delete it yourself when you no longer need it.`,
    );
  }
  if (c.refused) {
    lines.push(
      ...(c.kept.length ? [''] : []),
      `GitHub refused to delete ${list(c.refused.branches.map(codeSpan))}: ${c.refused.reason}. Nothing else about the run changed. To let crew delete its branches once a run has ended, exclude \`crew/**\` from that rule or let the token crew uses bypass it (or give crew's jobs \`contents: write\`, as the README's workflow does). crew does not try again for this run: delete ${c.refused.branches.length === 1 ? 'it' : 'them'} yourself.`,
    );
  }
  return lines.join('\n').trimEnd();
}

function strayWhy(b: StrayBranch): string {
  const w = b.why;
  if (w.kind === 'not-crews') return 'not a name crew gives its branches';
  if (w.kind === 'no-run') return `run ${w.run} of #${w.issue} is no longer on crew/state`;
  const how = { 'merged-by-crew': 'merged by crew', merged: 'merged', closed: 'closed', aborted: 'aborted', failed: 'failed' }[w.end.how];
  return `run ${w.run} of #${w.issue} ended (${how}) and crew left this branch`;
}

/** The `crew/` branches that belong to no open run, one line each (the first `max`), or nothing when there are none. */
export function strayBranchLines(strays: readonly StrayBranch[], max = 30, s: Surface = GITHUB): string[] {
  if (!strays.length) return [];
  const lines = [
    `${s.bold(`${strays.length} ${strays.length === 1 ? 'branch' : 'branches'} under \`crew/\` belong${strays.length === 1 ? 's' : ''} to no open run`)} (crew deletes only the branches of its own runs, and never one with someone else's work on it):`,
    '',
  ];
  for (const b of strays.slice(0, max)) lines.push(`- ${codeSpan(b.branch)} at ${codeSpan(short(b.sha))}: ${strayWhy(b)}.`);
  if (strays.length > max) lines.push(`- … and ${strays.length - max} more.`);
  return lines;
}
