/**
 * The shipped workflow's job graph (`.github/workflows/crew.yml`), described once: which jobs a
 * workflow run has, what each needs, when it runs (its `if:`), the matrix of the work job, and the
 * inputs each passes crew. On GitHub the runner plays the YAML; local mode plays this description
 * (`playWorkflowRun`, used by local/engine.ts). tests/unit/workflow-expressions/job-graph.test.ts
 * plays crew.yml with the offline runner's parser, status functions and expression evaluator for
 * the same events and job outcomes, and checks that both start the same jobs with the same inputs.
 * Pure: the jobs themselves run through a callback.
 */

export type JobName = 'route' | 'work' | 'advance' | 'critic' | 'merge' | 'cleanup';
export type JobResult = 'success' | 'failure' | 'cancelled' | 'skipped';

/** The label crew puts on an issue while it waits for an answer; a plain reply there starts the route job. */
const WAITING = 'crew: waiting';

/** What a workflow run was started by, as far as the jobs' conditions and inputs read it. */
export type WorkflowEvent =
  | { kind: 'comment'; body: string; userType: string; labels: string[] }
  | { kind: 'dispatch'; inputs: { issue: string; run: string; tasks: string; nonce: string } }
  | { kind: 'check_suite'; headBranch: string | null; pullRequests: number }
  /** A submitted review (GitHub only): its head branch, and for route its body, state and author type. */
  | { kind: 'review'; headRef: string; body?: string | null; state?: string; userType?: string }
  /**
   * A CI workflow run completed (GitHub only): its conclusion, head branch and head repository, its
   * workflow's name, the pull requests GitHub lists for it, and this repository and workflow's names.
   */
  | {
      kind: 'workflow_run';
      conclusion: string | null;
      headBranch: string | null;
      headRepo: string | null;
      name: string;
      pullRequests: number;
      repository: string;
      workflow: string;
    }
  /**
   * A pull request closed, merged or not (`pull_request_target`, GitHub only): its head branch, the
   * repository its head is in (null when the fork is gone), and this repository's name.
   */
  | { kind: 'pull_closed'; headRef: string; headRepo: string | null; repository: string };

export interface Finished {
  result: JobResult;
  outputs: Record<string, string>;
}

/** What a job's `if:` sees: the event, the jobs it needs, and whether the run was cancelled. */
export interface JobFacts {
  event: WorkflowEvent;
  needs: Partial<Record<JobName, Finished>>;
  cancelled: boolean;
}

/** The inputs a job passes to crew's action (its `with:` block), typed as crew reads them (settings.ts). */
export interface JobInputs {
  issue?: number;
  run?: number;
  task?: string;
  workResult?: string;
}

export interface WorkflowJob {
  name: JobName;
  needs: JobName[];
  /** The job's `if:`. A condition that calls no status function also needs success() (every job it needs succeeded, nothing cancelled), as on GitHub. */
  runs(f: JobFacts): boolean;
  /** The work job's `strategy.matrix.task`: one leg per task id. */
  matrix?(f: JobFacts): string[];
  inputs(f: JobFacts, task?: string): JobInputs;
}

/** GitHub's expressions compare strings ignoring case. */
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const out = (f: JobFacts, job: JobName, key: string) => f.needs[job]?.outputs[key] ?? '';
/** `inputs.x || needs.route.outputs.x`: a dispatch's own input, else what the route job chose. */
const fromDispatchOrRoute = (f: JobFacts, key: 'issue' | 'run' | 'tasks') => (f.event.kind === 'dispatch' ? f.event.inputs[key] : '') || out(f, 'route', key);
const number = (text: string) => (/^[1-9][0-9]*$/.test(text) ? Number(text) : undefined);
const issueAndRun = (f: JobFacts): JobInputs => {
  const issue = number(fromDispatchOrRoute(f, 'issue'));
  const run = number(fromDispatchOrRoute(f, 'run'));
  return { ...(issue !== undefined ? { issue } : {}), ...(run !== undefined ? { run } : {}) };
};

export const WORKFLOW_JOBS: readonly WorkflowJob[] = [
  {
    // A comment from a person that starts with /crew, any reply while crew waits for an answer, or a failed CI run on crew's
    // pull request (GitHub only); crew's own dispatches skip it.
    // (The YAML's review-comment and issues branches are GitHub-only events local mode never plays.)
    name: 'route',
    needs: [],
    runs: (f) =>
      !f.cancelled &&
      ((f.event.kind === 'comment' &&
        same(f.event.userType, 'User') &&
        (f.event.body.toLowerCase().startsWith('/crew') || f.event.labels.some((l) => same(l, WAITING)))) ||
        // A review from a person that starts with /crew, or that requests changes on crew's own branch (iterate_on_review, checked by route).
        (f.event.kind === 'review' &&
          same(f.event.userType ?? '', 'User') &&
          ((f.event.body ?? '').toLowerCase().startsWith('/crew') ||
            (same(f.event.state ?? '', 'changes_requested') && f.event.headRef.toLowerCase().startsWith('crew/')))) ||
        // A CI run that failed on crew's pull request branch in this repository, from another workflow (fix_ci).
        (f.event.kind === 'workflow_run' &&
          same(f.event.conclusion ?? '', 'failure') &&
          (f.event.headBranch ?? '').toLowerCase().startsWith('crew/') &&
          (f.event.headBranch ?? '').toLowerCase().endsWith('/integration') &&
          same(f.event.headRepo ?? '', f.event.repository) &&
          !same(f.event.name, f.event.workflow))),
    inputs: () => ({}),
  },
  {
    // One leg per task: a dispatch's tasks, or the ones route claimed; never an empty matrix.
    name: 'work',
    needs: ['route'],
    runs: (f) =>
      !f.cancelled &&
      ((f.event.kind === 'dispatch' && f.event.inputs.tasks !== '[]') ||
        (f.needs.route?.result === 'success' && out(f, 'route', 'tasks') !== '' && out(f, 'route', 'tasks') !== '[]')),
    matrix: (f) => JSON.parse(fromDispatchOrRoute(f, 'tasks')) as string[],
    inputs: (f, task) => ({ ...issueAndRun(f), ...(task !== undefined ? { task } : {}) }),
  },
  {
    // Settles the run where work did not succeed (a lost or cancelled leg, no work, the finishing dispatch).
    name: 'advance',
    needs: ['route', 'work'],
    runs: (f) => f.needs.work?.result !== 'success' && (f.event.kind === 'dispatch' || out(f, 'route', 'run') !== ''),
    inputs: (f) => ({ ...issueAndRun(f), workResult: f.needs.work?.result ?? '' }),
  },
  {
    // Judges the integration when advance says so.
    name: 'critic',
    needs: ['route', 'advance'],
    runs: (f) => !f.cancelled && out(f, 'advance', 'critic') === 'true',
    inputs: (f) => issueAndRun(f),
  },
  {
    // The merge gate again on crew's own pull request: a check suite completed, a CI run ended other than in failure (route
    // takes a failure), or a review (GitHub only).
    name: 'merge',
    needs: [],
    runs: (f) =>
      !f.cancelled &&
      ((f.event.kind === 'check_suite' && (f.event.headBranch ?? '').toLowerCase().startsWith('crew/') && f.event.pullRequests > 0) ||
        (f.event.kind === 'workflow_run' &&
          !same(f.event.conclusion ?? '', 'failure') &&
          (f.event.headBranch ?? '').toLowerCase().startsWith('crew/') &&
          f.event.pullRequests > 0) ||
        (f.event.kind === 'review' && f.event.headRef.toLowerCase().startsWith('crew/'))),
    inputs: () => ({}),
  },
  {
    // crew's pull request closed (GitHub only): the run's branches go (steps/cleanup.ts).
    name: 'cleanup',
    needs: [],
    runs: (f) =>
      !f.cancelled &&
      f.event.kind === 'pull_closed' &&
      f.event.headRef.toLowerCase().startsWith('crew/') &&
      f.event.headRef.toLowerCase().endsWith('/integration') &&
      same(f.event.headRepo ?? '', f.event.repository),
    inputs: () => ({}),
  },
];

/** A matrix job's result from its legs', as GitHub sums them up. */
export function matrixResult(legs: JobResult[]): JobResult {
  return legs.includes('failure') ? 'failure' : legs.includes('cancelled') ? 'cancelled' : 'success';
}

export interface JobRunner {
  /** Runs one job (one leg of the work matrix) of crew's with these inputs. */
  job(name: JobName, inputs: JobInputs): Promise<Finished>;
  /**
   * True once the person stopped the run (Ctrl-C). Local mode then starts no further job, not even
   * one whose `if:` survives a cancel on GitHub (advance's `always()`): the engine marks the run
   * interrupted itself, and `crew run --resume` settles it.
   */
  stopped(): boolean;
}

/** One workflow run played from the graph: jobs in `needs` order, each when its condition holds, the work matrix's legs at once. */
export async function playWorkflowRun(event: WorkflowEvent, runner: JobRunner): Promise<Map<JobName, Finished>> {
  const done = new Map<JobName, Finished>();
  for (const job of WORKFLOW_JOBS) {
    const needs = Object.fromEntries(job.needs.map((n) => [n, done.get(n)!])) as JobFacts['needs'];
    const facts: JobFacts = { event, needs, cancelled: runner.stopped() };
    if (runner.stopped() || !job.runs(facts)) {
      done.set(job.name, { result: 'skipped', outputs: {} });
      continue;
    }
    if (!job.matrix) {
      done.set(job.name, await runner.job(job.name, job.inputs(facts)));
      continue;
    }
    const tasks = job.matrix(facts);
    // GitHub fails a job whose matrix is empty ("Matrix vector 'task' does not contain any values"); the work job's `if:` guards it.
    if (!tasks.length) {
      done.set(job.name, { result: 'failure', outputs: {} });
      continue;
    }
    const legs = await Promise.all(tasks.map((task) => runner.job(job.name, job.inputs(facts, task))));
    done.set(job.name, {
      result: matrixResult(legs.map((l) => l.result)),
      outputs: Object.assign({}, ...legs.map((l) => l.outputs)) as Record<string, string>,
    });
  }
  return done;
}

/**
 * The crew task of a `work` matrix leg, from the name GitHub gives the leg: `work (<task>)` (a
 * matrix of one key) in the full workflow; `<caller job> / work (<task>)` when the short workflow's
 * job calls crew-jobs.yml (GitHub names a called workflow's jobs after their caller job). Empty for
 * any other job, or a job the workflow renamed.
 */
export function workLegTask(jobName: string): string[] {
  const m = /^(?:[^/]+ \/ )?work \(([^()]+)\)$/.exec(jobName);
  return m ? [m[1]!] : [];
}
