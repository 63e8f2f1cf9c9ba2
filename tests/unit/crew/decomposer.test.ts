import { describe, expect, it } from 'vitest';
import { decompose, type DecomposeInput } from '../../../src/agents/decomposer';
import { SubmissionRejected } from '../../../src/agents/submission';
import { planBoundsProblems } from '../../../src/domain/plan';
import type { Log, ModelRequest } from '../../../src/ports';
import { scriptedSubmissions } from './scripted-model';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

const scripted = (inputs: unknown[]) => scriptedSubmissions('submit_plan', inputs);

const task = (id: string, files: string[] = [`src/${id}.js`]) => ({
  id,
  title: `Do ${id}`,
  description: `Do ${id}.`,
  persona: 'coder',
  model: 'haiku',
  files,
  criteria: [`${id} is exported`],
});
const plan = (...tasks: unknown[]) => ({ summary: 'S', tasks });
const input = (over: Partial<DecomposeInput> = {}): DecomposeInput => ({
  title: 'T',
  body: 'B',
  task: 'T',
  criteria: [{ id: 'c1', text: 'tests pass', kind: 'command', command: 'npm test' }],
  answers: '',
  eyes: { map: '## Repository map\nsrc/index.js' },
  maxTasks: 2,
  minTasks: 2,
  protectedPaths: ['.github/workflows/**', '.github/crew.yml'],
  ...over,
});
/** What crew sent back after each rejected plan. */
const sentBack = (requests: ModelRequest[]) => requests.slice(1).map((r) => JSON.stringify(r.messages.at(-1)));

describe('the decomposer’s own checks, asked again with the errors at most twice', () => {
  it('holds a first plan to at least 2 tasks and to the repository’s max_tasks', async () => {
    const { model, requests } = scripted([plan(task('a'), task('b'), task('c')), plan(task('a')), plan(task('a'), task('b'))]);
    const out = await decompose({ model, modelId: 'm', system: 'sys', log }, input());
    expect(JSON.stringify(requests[0]!.messages[0])).toContain(
      'Plan at least 2 and at most 2 tasks. No task may touch these protected paths: .github/workflows/**, .github/crew.yml.',
    );
    const [first, second] = sentBack(requests);
    expect(first).toContain('tasks: 3 tasks is more than the limit of 2');
    expect(second).toContain('tasks: a plan needs at least 2 tasks');
    expect(out.plan.tasks.map((t) => t.id)).toEqual(['t1', 't2']);
  });

  it('a task that plans to touch a protected path is refused, so no plan with one reaches review or approval', async () => {
    const touching = plan(task('a'), task('ci', ['./.github/workflows/ci.yml']));
    const { model, requests } = scripted([touching, touching, touching]);
    const err = await decompose({ model, modelId: 'm', system: 'sys', log }, input()).catch((e) => e);
    expect(requests).toHaveLength(3);
    expect(err).toBeInstanceOf(SubmissionRejected);
    expect((err as SubmissionRejected).errors).toEqual([
      'tasks.1.files: ./.github/workflows/ci.yml is protected (.github/workflows/**); no task may change it, so leave it to people and plan without it',
    ]);
  });

  it('re-planning may replace a task with one task', async () => {
    const { model, requests } = scripted([plan(task('a'))]);
    const out = await decompose({ model, modelId: 'm', system: 'sys', log }, input({ minTasks: 1 }));
    expect(requests).toHaveLength(1);
    expect(out.plan.tasks).toHaveLength(1);
  });

  it('planBoundsProblems reports every problem at once', () => {
    const tasks = [task('a', ['.github/crew.yml']), task('b'), task('c')].map((t) => ({ ...t, files: t.files }));
    expect(planBoundsProblems({ tasks } as never, { minTasks: 2, maxTasks: 2, protectedPaths: ['.github/crew.yml'] })).toEqual([
      'tasks: 3 tasks is more than the limit of 2; merge related work into fewer tasks',
      'tasks.0.files: .github/crew.yml is protected (.github/crew.yml); no task may change it, so leave it to people and plan without it',
    ]);
  });
});

describe("the planner's prompt and images it was to see (#36)", () => {
  it('names each recorded image a later planning job could not load, with why, so the planner knows it has not seen it', async () => {
    const { model, requests } = scripted([plan(task('a'), task('b'))]);
    await decompose({ model, modelId: 'm', system: 'sys', log }, input({ imagesNotLoaded: ['image-2 could not be loaded: GitHub answered 404'] }));
    const first = JSON.stringify(requests[0]!.messages[0]);
    expect(first).toContain('could not be loaded, so they are not shown and you have not seen them');
    expect(first).toContain('- image-2 could not be loaded: GitHub answered 404');
    // Without any, the prompt says nothing of it.
    const again = scripted([plan(task('a'), task('b'))]);
    await decompose({ model: again.model, modelId: 'm', system: 'sys', log }, input());
    expect(JSON.stringify(again.requests[0]!.messages[0])).not.toContain('could not be loaded');
  });
});
