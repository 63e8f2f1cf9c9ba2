import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  matrixResult,
  playWorkflowRun,
  WORKFLOW_JOBS,
  type Finished,
  type JobInputs,
  type JobName,
  type JobResult,
  type WorkflowEvent,
} from '../../../src/domain/workflow-jobs';
import { evaluateIf, evaluateValue, interpolate, type ExprContext, type ExprValue } from '../../support/runner/expressions';
import { needsOf, parseWorkflow, type WorkflowSpec } from '../../support/runner/workflow-file';
import { jobResultOf, matrixLegs, statusFunctions } from '../../support/runner/workflow-runner';

/**
 * Local mode plays the job graph in src/domain/workflow-jobs.ts; GitHub plays crew.yml. Here the
 * offline runner's own pieces (its workflow parser, needs order, status functions, matrix
 * expansion and expression evaluator) play the shipped crew.yml for many events and job
 * outcomes, and the graph must start the same jobs, with the same inputs, in every one.
 */

const SHIPPED: WorkflowSpec = parseWorkflow(readFileSync(join(__dirname, '../../../.github/workflows/crew.yml'), 'utf8'), 'crew.yml');
/** The short form's jobs: crew's reusable workflow, called with the caller's github context and no inputs of its own. */
const CALLED: WorkflowSpec = parseWorkflow(readFileSync(join(__dirname, '../../../.github/workflows/crew-jobs.yml'), 'utf8'), 'crew-jobs.yml');

/** What each job of crew's ends with, given the inputs it was started with. */
type Outcomes = (job: JobName, inputs: JobInputs) => Finished;

interface Played {
  /** Every job (and work leg) started, with its inputs, in start order. */
  started: Array<{ job: JobName; inputs: JobInputs }>;
  results: Record<string, JobResult>;
}

function exprContext(event: WorkflowEvent): ExprContext {
  switch (event.kind) {
    case 'comment':
      return {
        github: {
          event_name: 'issue_comment',
          event: { comment: { body: event.body, user: { type: event.userType } }, issue: { number: 4, labels: event.labels.map((name) => ({ name })) } },
        },
        inputs: {},
      };
    case 'dispatch':
      return { github: { event_name: 'workflow_dispatch', event: { inputs: event.inputs } }, inputs: event.inputs };
    case 'check_suite':
      return {
        github: {
          event_name: 'check_suite',
          event: { check_suite: { head_branch: event.headBranch, pull_requests: Array.from({ length: event.pullRequests }, (_, i) => ({ number: i + 1 })) } },
        },
        inputs: {},
      };
    case 'review':
      return {
        github: {
          event_name: 'pull_request_review',
          event: {
            action: 'submitted',
            pull_request: { head: { ref: event.headRef } },
            review: { body: event.body ?? null, state: event.state ?? 'commented', user: { type: event.userType ?? 'User' } },
          },
        },
        inputs: {},
      };
    case 'workflow_run':
      return {
        github: {
          event_name: 'workflow_run',
          repository: event.repository,
          workflow: event.workflow,
          event: {
            action: 'completed',
            workflow_run: {
              name: event.name,
              conclusion: event.conclusion,
              head_branch: event.headBranch,
              head_repository: event.headRepo === null ? null : { full_name: event.headRepo },
              pull_requests: Array.from({ length: event.pullRequests }, (_, i) => ({ number: i + 1 })),
            },
          },
        },
        inputs: {},
      };
    case 'pull_closed':
      return {
        github: {
          event_name: 'pull_request_target',
          repository: event.repository,
          event: { action: 'closed', pull_request: { head: { ref: event.headRef, repo: event.headRepo === null ? null : { full_name: event.headRepo } } } },
        },
        inputs: {},
      };
  }
}

/** crew's action step of a job: its `with:` holds the step to run and the inputs. */
const crewStep = (job: string, WF: WorkflowSpec = SHIPPED) => WF.jobs[job]!.steps.find((s) => s.uses === './' || s.uses === './.git/crew-action')!;

/** The `with:` block as crew reads it (settings.ts): numbers for issue and run, empty inputs left out. */
function typedInputs(withs: Record<string, string>): JobInputs {
  const out: JobInputs = {};
  if (withs.issue) out.issue = Number(withs.issue);
  if (withs.run) out.run = Number(withs.run);
  if (withs.task) out.task = withs.task;
  if (withs.work_result !== undefined) out.workResult = withs.work_result;
  return out;
}

/** crew.yml played by the runner's pieces, each job's step replaced by `outcomes`; `cancelAfter`: the run is cancelled once that job ends. */
function playYaml(event: WorkflowEvent, outcomes: Outcomes, cancelAfter?: string, WF: WorkflowSpec = SHIPPED): Played {
  // A called workflow's `inputs` are its caller's `with:` (crew-jobs.yml has none); the dispatch's are in github.event.
  const own = WF === CALLED ? { inputs: {} } : {};
  const results = new Map<string, { result: JobResult; outputs: Record<string, string> }>();
  const started: Played['started'] = [];
  let cancelled = false;
  const pending = Object.keys(WF.jobs);
  while (pending.length) {
    const id = pending.find((j) => needsOf(WF.jobs[j]!).every((n) => results.has(n)));
    if (!id) throw new Error(`crew.yml: jobs ${pending.join(', ')} can never start`);
    pending.splice(pending.indexOf(id), 1);
    const spec = WF.jobs[id]!;
    // Cancelled once the job `cancelAfter` is decided, whether it ran or was skipped.
    const cancelNext = id === cancelAfter;
    const needs: Record<string, ExprValue> = {};
    for (const n of needsOf(spec)) needs[n] = { ...results.get(n)! };
    const ctx: ExprContext = { ...exprContext(event), ...own, needs };
    if (
      !evaluateIf(
        spec.if,
        ctx,
        statusFunctions(WF, id, results, () => cancelled),
      )
    ) {
      results.set(id, { result: 'skipped', outputs: {} });
      cancelled ||= cancelNext;
      continue;
    }
    const legs = matrixLegs(spec, ctx, 'crew.yml', id);
    if (typeof legs === 'string') {
      results.set(id, { result: 'failure', outputs: {} });
      cancelled ||= cancelNext;
      continue;
    }
    const ends: Finished[] = [];
    for (const leg of legs) {
      const legCtx: ExprContext = { ...ctx, matrix: (leg ?? {}) as ExprValue };
      const withs = evaluateValue(crewStep(id, WF).with, legCtx) as Record<string, string>;
      expect(withs.step, `jobs.${id} runs crew's ${id} step`).toBe(id);
      const inputs = typedInputs(withs);
      started.push({ job: id as JobName, inputs });
      const end = outcomes(id as JobName, inputs);
      // The job's outputs are its `outputs:` expressions over the crew step's outputs.
      const stepsCtx: ExprContext = { ...legCtx, steps: { crew: { outputs: end.outputs, outcome: end.result, conclusion: end.result } } };
      const outputs = Object.fromEntries(Object.entries(spec.outputs ?? {}).map(([k, v]) => [k, interpolate(String(v), stepsCtx)]));
      ends.push({ result: end.result, outputs });
    }
    results.set(id, { result: jobResultOf(ends.map((e) => e.result)), outputs: Object.assign({}, ...ends.map((e) => e.outputs)) as Record<string, string> });
    cancelled ||= cancelNext;
  }
  return { started, results: Object.fromEntries([...results].map(([k, v]) => [k, v.result])) };
}

/** The graph, as local mode plays it. */
async function playGraph(event: WorkflowEvent, outcomes: Outcomes): Promise<Played> {
  const started: Played['started'] = [];
  const done = await playWorkflowRun(event, {
    job: async (job, inputs) => {
      started.push({ job, inputs });
      return outcomes(job, inputs);
    },
    stopped: () => false,
  });
  return { started, results: Object.fromEntries([...done].map(([k, v]) => [k, v.result])) };
}

const EVENTS: Record<string, WorkflowEvent> = {
  'a /crew command': { kind: 'comment', body: '/crew run', userType: 'User', labels: [] },
  'a command in capitals': { kind: 'comment', body: '/CREW approve', userType: 'User', labels: ['bug'] },
  'a reply while crew waits': { kind: 'comment', body: 'Under 5 ms.', userType: 'User', labels: ['Crew: Waiting'] },
  'a comment not for crew': { kind: 'comment', body: 'looks good /crew', userType: 'User', labels: [] },
  "a bot's command": { kind: 'comment', body: '/crew run', userType: 'Bot', labels: [] },
  'a dispatch with tasks': { kind: 'dispatch', inputs: { issue: '4', run: '2', tasks: '["t3","t5"]', nonce: 'n1' } },
  'the finishing dispatch': { kind: 'dispatch', inputs: { issue: '4', run: '2', tasks: '[]', nonce: 'n2' } },
  "a check suite on crew's pull request": { kind: 'check_suite', headBranch: 'crew/4/r2/integration', pullRequests: 1 },
  'a check suite on crew/state': { kind: 'check_suite', headBranch: 'crew/state', pullRequests: 0 },
  'a check suite without a branch': { kind: 'check_suite', headBranch: null, pullRequests: 0 },
  "a review of crew's pull request": { kind: 'review', headRef: 'crew/4/r2/integration' },
  'a review of another pull request': { kind: 'review', headRef: 'feature' },
  "a /crew review of crew's pull request": { kind: 'review', headRef: 'crew/4/r2/integration', body: '/crew fix the typo', userType: 'User' },
  "changes requested on crew's pull request": {
    kind: 'review',
    headRef: 'crew/4/r2/integration',
    state: 'changes_requested',
    body: 'Please rename it.',
    userType: 'User',
  },
  'changes requested on a person’s pull request': {
    kind: 'review',
    headRef: 'feature',
    state: 'changes_requested',
    body: 'Please rename it.',
    userType: 'User',
  },
  "a bot's changes requested on crew's pull request": { kind: 'review', headRef: 'crew/4/r2/integration', state: 'changes_requested', userType: 'Bot' },
  ...ciRuns(),
  "crew's pull request closed": { kind: 'pull_closed', headRef: 'crew/4/r2/integration', headRepo: 'acme/widgets', repository: 'acme/widgets' },
  "a person's pull request closed": { kind: 'pull_closed', headRef: 'feature', headRepo: 'acme/widgets', repository: 'acme/widgets' },
  'a /crew remember pull request closed': { kind: 'pull_closed', headRef: 'crew/4/r2/memory-1', headRepo: 'acme/widgets', repository: 'acme/widgets' },
  "a fork's pull request named like crew's closed": {
    kind: 'pull_closed',
    headRef: 'crew/4/r2/integration',
    headRepo: 'mallory/widgets',
    repository: 'acme/widgets',
  },
  'a pull request from a deleted fork closed': { kind: 'pull_closed', headRef: 'crew/4/r2/integration', headRepo: null, repository: 'acme/widgets' },
};

/** Completed CI runs (workflow_run): a failure on crew's pull request, and each thing that makes it not fix_ci's or not the merge gate's. */
function ciRuns(): Record<string, WorkflowEvent> {
  const run = (over: Partial<Extract<WorkflowEvent, { kind: 'workflow_run' }>> = {}): WorkflowEvent => ({
    kind: 'workflow_run',
    conclusion: 'failure',
    headBranch: 'crew/4/r2/integration',
    headRepo: 'acme/widgets',
    name: 'CI',
    pullRequests: 1,
    repository: 'acme/widgets',
    workflow: 'crew',
    ...over,
  });
  return {
    "CI failed on crew's pull request": run(),
    "CI failed on crew's pull request, GitHub listing no pull request": run({ pullRequests: 0 }),
    "CI succeeded on crew's pull request": run({ conclusion: 'success' }),
    'CI was cancelled on crew’s pull request': run({ conclusion: 'cancelled' }),
    'CI failed on a task branch': run({ headBranch: 'crew/4/r2/t1', pullRequests: 0 }),
    'CI failed on crew/state': run({ headBranch: 'crew/state', pullRequests: 0 }),
    'CI failed on a person’s branch': run({ headBranch: 'feature', pullRequests: 1 }),
    'CI failed on a fork’s branch named like crew’s': run({ headRepo: 'mallory/widgets', pullRequests: 0 }),
    'CI failed with no head repository': run({ headRepo: null }),
    "crew's own workflow failed on its pull request": run({ name: 'crew' }),
    'CI failed on a run without a branch': run({ headBranch: null, pullRequests: 0 }),
  };
}

const ROUTE: Record<string, Finished> = {
  'claims two tasks': { result: 'success', outputs: { issue: '4', run: '2', tasks: '["t1","t2"]' } },
  'starts no work (resume, accept)': { result: 'success', outputs: { issue: '4', run: '2', tasks: '[]' } },
  'names no run (help, a refusal)': { result: 'success', outputs: { issue: '', run: '', tasks: '[]' } },
  'fails after naming the run': { result: 'failure', outputs: { issue: '4', run: '2', tasks: '["t1"]' } },
  'fails before any output': { result: 'failure', outputs: {} },
};
const WORK: Record<string, (task: string) => JobResult> = {
  'every leg succeeds': () => 'success',
  'one leg fails': (task) => (task === 't2' || task === 't5' ? 'failure' : 'success'),
  'one leg is cancelled': (task) => (task === 't1' || task === 't3' ? 'cancelled' : 'success'),
};
const ADVANCE: Record<string, Finished> = {
  'hands to the critic': { result: 'success', outputs: { critic: 'true' } },
  'settles without the critic': { result: 'success', outputs: {} },
  fails: { result: 'failure', outputs: { critic: 'true' } },
};

function outcomesOf(route: Finished, work: (task: string) => JobResult, advance: Finished): Outcomes {
  return (job, inputs) => {
    if (job === 'route') return route;
    if (job === 'work') return { result: work(inputs.task!), outputs: {} };
    if (job === 'advance') return advance;
    return { result: 'success', outputs: {} };
  };
}

const cases = Object.entries(EVENTS).flatMap(([event, e]) =>
  Object.entries(ROUTE).flatMap(([route, r]) =>
    Object.entries(WORK).flatMap(([work, w]) =>
      Object.entries(ADVANCE).map(([advance, a]) => ({ name: `${event}; route ${route}; ${work}; advance ${advance}`, e, r, w, a })),
    ),
  ),
);

describe('the job graph local mode plays is the shipped workflow’s', () => {
  it('has the same jobs, in an order their needs allow, each running crew’s step of its name', () => {
    const WF = SHIPPED;
    expect(WORKFLOW_JOBS.map((j) => [j.name, [...j.needs].sort()])).toEqual(Object.entries(WF.jobs).map(([id, j]) => [id, [...needsOf(j)].sort()]));
    for (const [i, job] of WORKFLOW_JOBS.entries()) for (const n of job.needs) expect(WORKFLOW_JOBS.findIndex((j) => j.name === n)).toBeLessThan(i);
    for (const id of Object.keys(WF.jobs)) expect(crewStep(id).with?.step).toBe(id);
    // Only the work job has a matrix, over task ids.
    expect(
      Object.entries(WF.jobs)
        .filter(([, j]) => j.strategy?.matrix)
        .map(([id]) => id),
    ).toEqual(WORKFLOW_JOBS.filter((j) => j.matrix).map((j) => j.name));
  });

  it(`starts the same jobs with the same inputs for ${cases.length} events and outcomes, and each job both runs and is skipped among them`, async () => {
    const ran = new Set<string>();
    const skipped = new Set<string>();
    for (const { name, e, r, w, a } of cases) {
      const outcomes = outcomesOf(r, w, a);
      const graph = await playGraph(e, outcomes);
      expect(graph, name).toEqual(playYaml(e, outcomes));
      expect(graph, `${name}, short form`).toEqual(playYaml(e, outcomes, undefined, CALLED));
      for (const [job, result] of Object.entries(graph.results)) (result === 'skipped' ? skipped : ran).add(job);
    }
    expect([...ran].sort()).toEqual(Object.keys(SHIPPED.jobs).sort());
    expect([...skipped].sort()).toEqual(Object.keys(SHIPPED.jobs).sort());
  });

  it('makes the same decisions as crew.yml once the run is cancelled (advance’s always() carries on; nothing else starts)', () => {
    for (const { e, r, w, a } of cases) {
      for (const cancelAfter of ['route', 'work', 'advance']) {
        const yaml = playYaml(e, outcomesOf(r, w, a), cancelAfter);
        // The graph's conditions, asked with the same finished jobs and a cancelled run.
        const finished: Partial<Record<JobName, Finished>> = {};
        const outcomes = outcomesOf(r, w, a);
        for (const job of WORKFLOW_JOBS) {
          const needs = Object.fromEntries(job.needs.map((n) => [n, finished[n]!]));
          const cancelled = WORKFLOW_JOBS.findIndex((j) => j.name === cancelAfter) < WORKFLOW_JOBS.indexOf(job);
          const facts = { event: e, needs, cancelled };
          if (!job.runs(facts)) finished[job.name] = { result: 'skipped', outputs: {} };
          else {
            const legs = job.matrix ? job.matrix(facts).map((task) => outcomes(job.name, job.inputs(facts, task))) : [outcomes(job.name, job.inputs(facts))];
            finished[job.name] = {
              result: matrixResult(legs.map((l) => l.result)),
              outputs: Object.assign({}, ...legs.map((l) => l.outputs)) as Record<string, string>,
            };
          }
          expect(finished[job.name]!.result, `${job.name} after a cancel following ${cancelAfter}`).toBe(yaml.results[job.name]);
        }
      }
    }
  });

  it('would notice a workflow that drifts: an advance job that also runs after work succeeded, or work that reads another output', async () => {
    const e = EVENTS['a /crew command']!;
    const outcomes = outcomesOf(ROUTE['claims two tasks']!, WORK['every leg succeeds']!, ADVANCE['settles without the critic']!);
    const graph = await playGraph(e, outcomes);
    expect(graph).toEqual(playYaml(e, outcomes));
    const always = structuredClone(SHIPPED);
    always.jobs.advance!.if = "always() && (github.event_name == 'workflow_dispatch' || needs.route.outputs.run != '')";
    expect(graph).not.toEqual(playYaml(e, outcomes, undefined, always));
    const renamed = structuredClone(SHIPPED);
    renamed.jobs.route!.outputs = { ...renamed.jobs.route!.outputs, issue: '${{ steps.crew.outputs.run }}' };
    expect(graph).not.toEqual(playYaml(e, outcomes, undefined, renamed));
  });
});
