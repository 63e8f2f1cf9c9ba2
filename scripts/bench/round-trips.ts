import { STATE_BRANCH } from '../../src/domain/refs';
import type { FakeGitHub } from '../../tests/support/github/fake-github';
import type { GitRequestKind } from '../../tests/support/github/git-http';
import type { WorkflowRunner } from '../../tests/support/runner/workflow-runner';

/**
 * What each of crew's jobs asked of GitHub (#17 §2). GitHub mints a GITHUB_TOKEN per job, and the
 * offline runner tags each job's token with the job and its current step, so the fake GitHub puts
 * every REST, GraphQL and git request down to the job that made it; crew's own code is untouched.
 * State writes are counted from the job's log: crew logs the checkpoint `state-write` before each
 * push to crew/state, and "crew/state moved under us" when another job's write got there first.
 */

export interface GitCounts {
  total: number;
  /** The first request of every fetch, ls-remote and push (capabilities under protocol v2; a push's refs). */
  infoRefs: number;
  /** Protocol v2's ref listing, after info/refs (fetch by name, ls-remote). */
  lsRefs: number;
  fetch: number;
  push: number;
  other: number;
}

export interface JobRequests {
  /** The job's id in the workflow: route, work, advance, critic, merge. */
  kind: string;
  /** A work job's task (crew's id). */
  task?: string;
  rest: number;
  graphql: number;
  git: GitCounts;
  /** Of the job's git requests, those actions/checkout made (the workflow's first step). */
  checkoutGit: number;
  /** Pushes to crew/state that landed, and those redone because another job's landed first. */
  stateWrites: number;
  stateWriteRetries: number;
  /** Waiting for a runner (and, first in a dispatched run, for the run to start), as the profile says, scaled. */
  queuedMs: number;
  /** How many tasks a work job ran: its matrix leg's, and each its record chained to it (#17 §4); 0 for other jobs. */
  tasks: number;
}

export const emptyGit = (): GitCounts => ({ total: 0, infoRefs: 0, lsRefs: 0, fetch: 0, push: 0, other: 0 });

const GIT_FIELD: Record<GitRequestKind, Exclude<keyof GitCounts, 'total'>> = {
  'info/refs': 'infoRefs',
  'ls-refs': 'lsRefs',
  fetch: 'fetch',
  push: 'push',
  other: 'other',
};

const isCheckout = (step: string | undefined) => !!step && /^actions\/checkout@/.test(step);

/** Every job that ran a step, with what its token asked of GitHub. */
export function jobRequests(gh: FakeGitHub, runner: WorkflowRunner): JobRequests[] {
  const out: JobRequests[] = [];
  for (const run of runner.runs) {
    for (const job of run.jobs) {
      if (!job.key || job.steps.length === 0) continue;
      const rest = gh.requests.filter((r) => r.job === job.key);
      const git = gh.gitRequests.filter((r) => r.job === job.key);
      const counts = emptyGit();
      for (const r of git) {
        counts.total++;
        counts[GIT_FIELD[r.kind]]++;
      }
      const attempts = job.log.filter((l) => l.includes('crew checkpoint: state-write')).length;
      const retries = job.log.filter((l) => l.includes(`${STATE_BRANCH} moved under us`)).length;
      out.push({
        kind: job.id,
        ...(job.matrix?.task ? { task: String(job.matrix.task) } : {}),
        rest: rest.filter((r) => r.route !== 'POST /graphql').length,
        graphql: rest.filter((r) => r.route === 'POST /graphql').length,
        git: counts,
        checkoutGit: git.filter((r) => isCheckout(r.step)).length,
        stateWrites: attempts - retries,
        stateWriteRetries: retries,
        queuedMs: job.queuedMs ?? 0,
        tasks: job.id === 'work' ? 1 + (job.tasks?.length ?? 0) : 0,
      });
    }
  }
  return out;
}

export interface JobKindFigure {
  kind: string;
  jobs: number;
  /** The tasks those jobs ran (work jobs; a chain runs several in one job). */
  tasks: number;
  /** Means per job of this kind. */
  mean: { rest: number; graphql: number; git: GitCounts; checkoutGit: number; stateWrites: number; stateWriteRetries: number };
  /** The most any one job of this kind made. */
  max: { rest: number; git: number; stateWrites: number; stateWriteRetries: number };
}

const KIND_ORDER = ['route', 'work', 'advance', 'critic', 'merge'];
const round2 = (x: number) => Math.round(x * 100) / 100;

export function byJobKind(jobs: JobRequests[]): JobKindFigure[] {
  const kinds = [...new Set(jobs.map((j) => j.kind))].sort(
    (a, b) => (KIND_ORDER.indexOf(a) + 1 || 99) - (KIND_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b),
  );
  return kinds.map((kind) => {
    const js = jobs.filter((j) => j.kind === kind);
    const mean = (f: (j: JobRequests) => number) => round2(js.reduce((s, j) => s + f(j), 0) / js.length);
    const max = (f: (j: JobRequests) => number) => Math.max(...js.map(f));
    const git = Object.fromEntries(Object.keys(emptyGit()).map((k) => [k, mean((j) => j.git[k as keyof GitCounts])])) as unknown as GitCounts;
    return {
      kind,
      jobs: js.length,
      tasks: js.reduce((n, j) => n + (j.tasks ?? 0), 0),
      mean: {
        rest: mean((j) => j.rest),
        graphql: mean((j) => j.graphql),
        git,
        checkoutGit: mean((j) => j.checkoutGit),
        stateWrites: mean((j) => j.stateWrites),
        stateWriteRetries: mean((j) => j.stateWriteRetries),
      },
      max: {
        rest: max((j) => j.rest),
        git: max((j) => j.git.total),
        stateWrites: max((j) => j.stateWrites),
        stateWriteRetries: max((j) => j.stateWriteRetries),
      },
    };
  });
}

/** One request of a job, in the order the fake received them. */
export interface TracedRequest {
  /** The workflow step that made it. */
  step: string;
  type: 'REST' | 'GraphQL' | 'git';
  /** The REST route, or the git request's kind (with a push's refs). */
  what: string;
  status: number;
}

/** Every request one job made, in order: what §3 of #17 starts from. */
export function requestTrace(gh: FakeGitHub, jobKey: string): TracedRequest[] {
  const rest = gh.requests
    .filter((r) => r.job === jobKey)
    .map((r) => ({
      seq: r.seq,
      step: r.step ?? '?',
      type: r.route === 'POST /graphql' ? ('GraphQL' as const) : ('REST' as const),
      what: r.route,
      status: r.status,
    }));
  const git = gh.gitRequests
    .filter((r) => r.job === jobKey)
    .map((r) => ({
      seq: r.seq,
      step: r.step ?? '?',
      type: 'git' as const,
      what: `${r.kind} (${r.service})${r.refs?.length ? ` ${r.refs.join(' ')}` : ''}`,
      status: r.status,
    }));
  return [...rest, ...git].sort((a, b) => a.seq - b.seq).map(({ seq: _seq, ...r }) => r);
}

/** Whether the latency profile was applied: what the fake held up, against what it received. */
export interface ProfileApplied {
  /** Requests the fake held up, by kind, and the time it added (scaled). */
  delays: { rest: number; graphql: number; git: number; ms: number };
  /** Requests the fake received, by kind (every principal). */
  received: { rest: number; graphql: number; git: number };
}

export function profileApplied(gh: FakeGitHub): ProfileApplied {
  const graphql = gh.requests.filter((r) => r.route === 'POST /graphql').length;
  return {
    delays: { ...gh.delays },
    received: { rest: gh.requests.length - graphql, graphql, git: gh.gitRequests.length },
  };
}
