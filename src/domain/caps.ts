import { z } from 'zod';
import { count, type Stored } from './stored-shape';

/**
 * Caps per run on what crew creates on GitHub: comments, pull requests and branches.
 * The model decides how many tasks, questions and re-plans a run has, so without a cap a
 * model steered by hostile text could make crew flood an issue or a repository. Pure.
 */

export type CapKind = 'comments' | 'pull_requests' | 'branches';

/** What a run has created (or reserved) so far, kept in run.json. */
export const PostedSchema = z.looseObject({ comments: count, pullRequests: count, branches: count });
export type Posted = Stored<typeof PostedSchema>;

export interface Caps {
  comments_per_run: number;
  pull_requests_per_run: number;
  branches_per_run: number;
}

export const NOTHING_POSTED: Posted = { comments: 0, pullRequests: 0, branches: 0 };

/** The step name a run stopped by a cap fails with; a second job hitting a cap sees it and says nothing more. */
export const CAP_STEP = 'caps';

const FIELD: Record<CapKind, keyof Posted> = { comments: 'comments', pull_requests: 'pullRequests', branches: 'branches' };
const KEY: Record<CapKind, keyof Caps> = { comments: 'comments_per_run', pull_requests: 'pull_requests_per_run', branches: 'branches_per_run' };
const NOUN: Record<CapKind, [string, string]> = {
  comments: ['comment', 'comments'],
  pull_requests: ['pull request', 'pull requests'],
  branches: ['branch', 'branches'],
};

export type Want = Partial<Record<CapKind, number>>;

export interface CapRefusal {
  kind: CapKind;
  limit: number;
  /** What the run would have had with this request. */
  needed: number;
}

/** The first cap `want` would exceed, or null when all of it fits. */
export function refusal(posted: Posted, caps: Caps, want: Want): CapRefusal | null {
  for (const kind of Object.keys(FIELD) as CapKind[]) {
    const more = want[kind] ?? 0;
    if (more <= 0) continue;
    const needed = posted[FIELD[kind]] + more;
    if (needed > caps[KEY[kind]]) return { kind, limit: caps[KEY[kind]], needed };
  }
  return null;
}

export function addPosted(posted: Posted, want: Want): Posted {
  const out = { ...posted };
  for (const kind of Object.keys(FIELD) as CapKind[]) out[FIELD[kind]] += Math.max(0, want[kind] ?? 0);
  return out;
}

export function capKey(kind: CapKind): string {
  return `caps.${KEY[kind]}`;
}

/** The one line the run's failure records. */
export function capSummary(r: CapRefusal): string {
  const [one, many] = NOUN[r.kind];
  return `stopped at ${capKey(r.kind)}: the run would need ${r.needed} ${r.needed === 1 ? one : many}, and the cap is ${r.limit}`;
}

/** What the cap comment needs of its surface (domain/surface.ts, which this module cannot import: run-state reads it). */
export interface CapWords {
  bold(text: string): string;
  give(kind: 'run'): string;
}

/** The final comment: which cap, why crew has caps, and how to raise this one; `run` is the run's number as the surface names it. */
export function capComment(run: number, r: CapRefusal, s: CapWords): string {
  const [, many] = NOUN[r.kind];
  return [
    `${s.bold(`crew stopped run ${run}`)}: it would have created more ${many} than \`${capKey(r.kind)}\` allows (${r.limit} per run; this run would need ${r.needed}).`,
    '',
    'crew caps what one run may create on GitHub, so that a run steered by hostile text cannot flood the issue or the repository. Nothing more will be posted or pushed for this run; the work done so far stays on its branches and on `crew/state`.',
    '',
    `If the run legitimately needs more, raise \`${capKey(r.kind)}\` in \`.github/crew.yml\` on the default branch (for example \`caps: { ${KEY[r.kind]}: ${Math.max(r.needed, r.limit * 2)} }\`), then ${s.give('run')} to start again.`,
  ].join('\n');
}
