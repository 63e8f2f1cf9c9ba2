/**
 * The auto-merge gate. crew merges only when every condition holds, and otherwise says
 * exactly why not (or what it is waiting for). Pure: the merge step gathers the facts.
 */

import type { CiRunFact } from './ci-status';
import type { Surface } from './surface';
import { codeSpan } from '../text/markdown';

export interface CheckFact {
  name: string;
  /** queued, in_progress, completed (check runs); pending, success, failure, error (statuses). */
  status: string;
  conclusion: string | null;
  /** A GitHub Actions job of another workflow's run: that run as GitHub tells it now, which names the workflow and links it. */
  run?: CiRunFact;
}

/** What fix_ci is doing about the red checks on the head, when that changes what a person can do. */
export type FixCiNote = { kind: 'fixing'; attempt: number; max: number } | { kind: 'used-up'; max: number };

export interface MergeFacts {
  autoMerge: boolean;
  acceptedBy: string | null;
  verdict: 'PASS' | 'FAIL' | null;
  /** The head the critic judged. */
  judgedSha: string | null;
  /** What the critic's checks found for a person to look at (a lifecycle script): crew never merges past these. */
  forAPerson: string[];
  pull: { state: 'open' | 'closed'; merged: boolean; headSha: string };
  checks: CheckFact[];
  mergeWithoutChecks: boolean;
  requireApproval: boolean;
  /** Logins whose latest review approves the current head and who may count (write, maintain or admin). */
  approvedBy: string[];
  /** Approvals that do not count, and why: shown with the reason crew waits. */
  uncounted: UncountedApproval[];
  requester: string;
  /** fix_ci's part, when checks failed: fixing them now, or out of attempts. */
  fixCi?: FixCiNote;
}

/** A reviewer's latest decisive review, when it approves: the commit it approved. */
export interface ApprovingReview {
  login: string;
  commit: string | null;
  bot: boolean;
}

/** What the collaborator-permission check said about a reviewer; `failed` when GitHub did not answer. */
export type ReviewerPermission = 'admin' | 'write' | 'read' | 'none' | 'failed';

export interface UncountedApproval {
  login: string;
  why: string;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Approvals whose author's permission decides whether they count: of the current head, not by the requester or a bot. */
function candidates(reviews: ApprovingReview[], headSha: string, requester: string): ApprovingReview[] {
  return reviews.filter((r) => !r.bot && !r.login.endsWith('[bot]') && !same(r.login, requester) && r.commit === headSha);
}

/** Whose permission the gate must ask GitHub for, each once. */
export function reviewersToCheck(reviews: ApprovingReview[], headSha: string, requester: string): string[] {
  const out: string[] = [];
  for (const r of candidates(reviews, headSha, requester)) if (!out.some((l) => same(l, r.login))) out.push(r.login);
  return out;
}

/**
 * Which approvals count, as GitHub's required reviews count them: only from people with
 * write access (write, maintain or admin; the permission endpoint reports maintain as
 * write), and only on the current head. Anyone can approve on a public repository, and a
 * permission check that failed counts as no. The requester's own approval and bots'
 * change nothing (the gate says so in its own words), so they are not listed.
 */
export function countApprovals(
  reviews: ApprovingReview[],
  headSha: string,
  requester: string,
  permission: (login: string) => ReviewerPermission | undefined,
): Pick<MergeFacts, 'approvedBy' | 'uncounted'> {
  const approvedBy: string[] = [];
  const uncounted: UncountedApproval[] = [];
  for (const r of reviews) {
    if (r.bot || r.login.endsWith('[bot]')) continue;
    if (same(r.login, requester)) {
      if (r.commit === headSha) approvedBy.push(r.login);
      continue;
    }
    if (r.commit !== headSha) {
      uncounted.push({ login: r.login, why: `@${r.login} approved an older head (${short(r.commit)})` });
      continue;
    }
    const p = permission(r.login) ?? 'failed';
    if (p === 'admin' || p === 'write') approvedBy.push(r.login);
    else if (p === 'failed') uncounted.push({ login: r.login, why: `@${r.login}: the permission check failed` });
    else uncounted.push({ login: r.login, why: `@${r.login} has ${p === 'none' ? 'no' : p} access` });
  }
  return { approvedBy, uncounted };
}

export type MergeDecision = { merge: true; note?: string } | { merge: false; waiting: boolean; reason: string };

const GREEN = new Set(['success', 'neutral', 'skipped']);

export function checkState(c: CheckFact): 'pending' | 'green' | 'red' {
  if (c.status === 'completed') return c.conclusion && GREEN.has(c.conclusion) ? 'green' : 'red';
  if (c.status === 'success') return 'green';
  if (c.status === 'failure' || c.status === 'error') return 'red';
  return 'pending';
}

const short = (sha: string | null) => (sha ? sha.slice(0, 7) : '(none)');

/** What the gate's reasons say differently where they are read (domain/surface.ts). */
export type MergeWords = Pick<Surface, 'noAutoMerge' | 'command' | 'link'>;

/** How a red check ended, in words ("failed", "timed out"). */
function howItEnded(c: CheckFact): string {
  const end = c.conclusion ?? c.status;
  const words: Record<string, string> = {
    failure: 'failed',
    error: 'errored',
    timed_out: 'timed out',
    cancelled: 'was cancelled',
    action_required: 'needs action',
    startup_failure: 'failed to start',
    stale: 'went stale',
  };
  return words[end] ?? `ended ${end}`;
}

const list = (items: string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`);

/**
 * The red checks, each named with its workflow and a link to its run where it is a GitHub Actions job
 * ("the `test` check of `CI` failed on afc2736 ([run](…))"). Check and workflow names come from the
 * repository's files and apps, so they are code; only GitHub's own run pages are linked.
 */
function redChecks(red: CheckFact[], head: string, s: MergeWords): string {
  const groups = new Map<string, { names: string[]; how: string; run?: CheckFact['run'] }>();
  for (const c of red) {
    const how = howItEnded(c);
    const key = c.run ? `${c.run.id} ${how}` : `check ${c.name}`;
    const g = groups.get(key) ?? { names: [], how, ...(c.run ? { run: c.run } : {}) };
    g.names.push(codeSpan(c.name));
    groups.set(key, g);
  }
  const said = [...groups.values()].map((g) => ({
    what: `the ${list(g.names)} check${g.names.length === 1 ? '' : 's'}${g.run ? ` of ${codeSpan(g.run.workflow)}` : ''} ${g.how}`,
    link: g.run ? ` (${s.link('run', g.run.url)})` : '',
  }));
  if (said.length === 1) return `${said[0]!.what} on ${short(head)}${said[0]!.link}`;
  return `checks did not pass on ${short(head)}: ${said.map((x) => `${x.what}${x.link}`).join('; ')}`;
}

/** What a person can do about red checks, and what crew does meanwhile (fix_ci): sentences, as crew writes its name (lower case). */
function afterRed(s: MergeWords, note: FixCiNote | undefined): string {
  const fix = s.command('fix', '…');
  const yours = `Push a fix${fix ? `, or comment ${fix}` : ''}; crew merges once the checks pass`;
  if (note?.kind === 'fixing') return `crew is fixing it (\`fix_ci\` attempt ${note.attempt} of ${note.max}) and merges once the checks pass on its fix`;
  if (note?.kind === 'used-up') return `crew has used all ${note.max} of its \`fix_ci_attempts\` on this pull request. ${yours}`;
  return yours;
}

/** What stops a merge before checks and reviews matter (so they need not be read), if anything. */
export function mergeBlocker(
  f: Pick<MergeFacts, 'autoMerge' | 'acceptedBy' | 'verdict' | 'judgedSha' | 'pull' | 'forAPerson'>,
  s: MergeWords,
): string | undefined {
  if (f.pull.merged) return 'the pull request is already merged';
  if (f.pull.state !== 'open') return 'the pull request is closed';
  if (!f.autoMerge) return s.noAutoMerge;
  if (f.acceptedBy)
    return `@${f.acceptedBy} accepted it with ${s.command('accept')} although the critic judged FAIL; crew never merges an accepted pull request`;
  if (f.verdict !== 'PASS') return 'the critic has not passed it';
  if (f.forAPerson.length)
    return `a person must look at ${f.forAPerson.join('; ')} first (listed under "Look at before merging"), so crew leaves the merge to them`;
  if (f.judgedSha !== f.pull.headSha)
    return `the head moved to ${short(f.pull.headSha)} after the critic passed ${short(f.judgedSha)}; crew merges only what the critic judged`;
  return undefined;
}

export function mergeDecision(f: MergeFacts, s: MergeWords): MergeDecision {
  const no = (reason: string, waiting = false): MergeDecision => ({ merge: false, waiting, reason });
  const blocked = mergeBlocker(f, s);
  if (blocked) return no(blocked);
  const red = f.checks.filter((c) => checkState(c) === 'red');
  if (red.length) return no(`${redChecks(red, f.pull.headSha, s)}. ${afterRed(s, f.fixCi)}`);
  const pending = f.checks.filter((c) => checkState(c) === 'pending');
  if (pending.length)
    return no(`waiting for checks on ${short(f.pull.headSha)}: ${pending.map((c) => c.name).join(', ')}; crew looks again when they complete`, true);
  let note: string | undefined;
  if (f.checks.length === 0) {
    // Waiting: checks may still be queued. If none ever come, the reason says what to change.
    if (!f.mergeWithoutChecks)
      return no(
        `the repository reports no checks on ${short(f.pull.headSha)}; crew merges when checks pass, or set \`merge_without_checks: true\` to merge without them (a pull request opened with the workflow's GITHUB_TOKEN starts no CI: see the README)`,
        true,
      );
    note = 'merged without checks: the repository reports none, and `merge_without_checks` is on';
  }
  if (f.requireApproval) {
    const others = f.approvedBy.filter((l) => l.toLowerCase() !== f.requester.toLowerCase() && !l.endsWith('[bot]'));
    const uncounted = f.uncounted.length ? `; approvals that do not count: ${f.uncounted.map((u) => u.why).join(', ')}` : '';
    if (!others.length)
      return no(`waiting for an approving review of ${short(f.pull.headSha)} from someone other than @${f.requester} (\`require_approval\`)${uncounted}`, true);
  }
  return note ? { merge: true, note } : { merge: true };
}

export type MergeMethod = 'merge' | 'squash' | 'rebase';

/** The configured method, or the first the repository allows, in GitHub's order. */
export function mergeMethod(configured: MergeMethod | undefined, allowed: { merge: boolean; squash: boolean; rebase: boolean }): MergeMethod | undefined {
  if (configured) return configured;
  return (['merge', 'squash', 'rebase'] as const).find((m) => allowed[m]);
}
