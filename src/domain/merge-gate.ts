/**
 * The auto-merge gate. crew merges only when every condition holds, and otherwise says
 * exactly why not (or what it is waiting for). Pure: the merge step gathers the facts.
 */

export interface CheckFact {
  name: string;
  /** queued, in_progress, completed (check runs); pending, success, failure, error (statuses). */
  status: string;
  conclusion: string | null;
}

export interface MergeFacts {
  autoMerge: boolean;
  acceptedBy: string | null;
  verdict: 'PASS' | 'FAIL' | null;
  /** The head the critic judged. */
  judgedSha: string | null;
  pull: { state: 'open' | 'closed'; merged: boolean; headSha: string };
  checks: CheckFact[];
  mergeWithoutChecks: boolean;
  requireApproval: boolean;
  /** Logins whose latest review on the current head approves it. */
  approvedBy: string[];
  requester: string;
}

export type MergeDecision = { merge: true; note?: string } | { merge: false; waiting: boolean; reason: string };

const GREEN = new Set(['success', 'neutral', 'skipped']);

function checkState(c: CheckFact): 'pending' | 'green' | 'red' {
  if (c.status === 'completed') return c.conclusion && GREEN.has(c.conclusion) ? 'green' : 'red';
  if (c.status === 'success') return 'green';
  if (c.status === 'failure' || c.status === 'error') return 'red';
  return 'pending';
}

const short = (sha: string | null) => (sha ? sha.slice(0, 7) : '(none)');

/** What stops a merge before checks and reviews matter (so they need not be read), if anything. */
export function mergeBlocker(f: Pick<MergeFacts, 'autoMerge' | 'acceptedBy' | 'verdict' | 'judgedSha' | 'pull'>): string | undefined {
  if (f.pull.merged) return 'the pull request is already merged';
  if (f.pull.state !== 'open') return 'the pull request is closed';
  if (!f.autoMerge) return '`auto_merge` is off in `.github/crew.yml`, so a person merges it';
  if (f.acceptedBy) return `@${f.acceptedBy} accepted it with \`/crew accept\` although the critic judged FAIL; crew never merges an accepted pull request`;
  if (f.verdict !== 'PASS') return 'the critic has not passed it';
  if (f.judgedSha !== f.pull.headSha) return `the head moved to ${short(f.pull.headSha)} after the critic passed ${short(f.judgedSha)}; crew merges only what the critic judged`;
  return undefined;
}

export function mergeDecision(f: MergeFacts): MergeDecision {
  const no = (reason: string, waiting = false): MergeDecision => ({ merge: false, waiting, reason });
  const blocked = mergeBlocker(f);
  if (blocked) return no(blocked);
  const red = f.checks.filter((c) => checkState(c) === 'red');
  if (red.length) return no(`checks failed on ${short(f.pull.headSha)}: ${red.map((c) => `${c.name} (${c.conclusion ?? c.status})`).join(', ')}`);
  const pending = f.checks.filter((c) => checkState(c) === 'pending');
  if (pending.length) return no(`waiting for checks on ${short(f.pull.headSha)}: ${pending.map((c) => c.name).join(', ')}; crew looks again when they complete`, true);
  let note: string | undefined;
  if (f.checks.length === 0) {
    // Waiting: checks may still be queued. If none ever come, the reason says what to change.
    if (!f.mergeWithoutChecks) return no(`the repository reports no checks on ${short(f.pull.headSha)}; crew merges when checks pass, or set \`merge_without_checks: true\` to merge without them (a pull request opened with the workflow's GITHUB_TOKEN starts no CI: see the README)`, true);
    note = 'merged without checks: the repository reports none, and `merge_without_checks` is on';
  }
  if (f.requireApproval) {
    const others = f.approvedBy.filter((l) => l.toLowerCase() !== f.requester.toLowerCase() && !l.endsWith('[bot]'));
    if (!others.length) return no(`waiting for an approving review of ${short(f.pull.headSha)} from someone other than @${f.requester} (\`require_approval\`)`, true);
  }
  return note ? { merge: true, note } : { merge: true };
}

export type MergeMethod = 'merge' | 'squash' | 'rebase';

/** The configured method, or the first the repository allows, in GitHub's order. */
export function mergeMethod(configured: MergeMethod | undefined, allowed: { merge: boolean; squash: boolean; rebase: boolean }): MergeMethod | undefined {
  if (configured) return configured;
  return (['merge', 'squash', 'rebase'] as const).find((m) => allowed[m]);
}
