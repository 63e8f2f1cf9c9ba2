import { describe, expect, it } from 'vitest';
import {
  ancestors,
  blamedBy,
  describeOutcome,
  compareWithBase,
  decide,
  failureSignature,
  leftOutWith,
  tryOrder,
  verdictOfRun,
  type LocalisableTask,
  type LocalisationRun,
  type RunSite,
} from '../../../src/domain/localisation';

const tasks: LocalisableTask[] = [
  { id: 't1', dependsOn: [], changedFiles: ['src/sum.js'] },
  { id: 't2', dependsOn: ['t1'], changedFiles: ['test/sum.test.js'] },
  { id: 't3', dependsOn: [], changedFiles: ['README.md'] },
  { id: 't4', dependsOn: [], changedFiles: ['src/square.js', 'test/square.test.js'] },
];

const nodeFail = (name: string, dir = '/tmp/a') =>
  [
    `✖ ${name} (0.41ms)`,
    `  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:`,
    `      at TestContext.<anonymous> (file://${dir}/test/sum.test.js:6:10)`,
    'ℹ fail 1',
    'ℹ duration_ms 51.2',
  ].join('\n');
const run = (site: RunSite, exitCode: number, output = '', verdict?: LocalisationRun['verdict']): LocalisationRun => ({
  site,
  exitCode,
  timedOut: false,
  output,
  verdict: verdict ?? (exitCode === 0 ? 'passes' : 'fails'),
});

describe('localisation', () => {
  it('tries the tasks whose code the output names first, then those whose tests it names, documentation last, and skips tasks that changed nothing', () => {
    const withEmpty = [...tasks, { id: 't5', dependsOn: [], changedFiles: [] }];
    expect(tryOrder(withEmpty, 'at sum (src/sum.js:2:3)')).toEqual(['t1', 't2', 't4', 't3']);
    expect(tryOrder(withEmpty, 'at test/square.test.js:4')).toEqual(['t4', 't1', 't2', 't3']);
  });

  it('a failure signature leaves out times, temporary folders and counts, so the same failure in two checkouts compares equal', () => {
    expect(failureSignature(nodeFail('sum adds', '/tmp/x/workspace'))).toEqual(failureSignature(nodeFail('sum adds', '/home/runner/work/r')));
    expect(failureSignature('ℹ fail 1\nℹ pass 3')).toEqual(new Set());
    expect(compareWithBase({ exitCode: 1, output: nodeFail('a') }, { exitCode: 1, output: nodeFail('a') })).toBe('same');
    expect(compareWithBase({ exitCode: 1, output: nodeFail('a') }, { exitCode: 1, output: `${nodeFail('a')}\n${nodeFail('b')}` })).toBe('different');
    // `test -f x` prints nothing: the runs cannot be told apart.
    expect(compareWithBase({ exitCode: 1, output: '' }, { exitCode: 1, output: '' })).toBe('unknown');
  });

  it("a run's verdict: exit 0 passes, exit 1 fails unless the base fails the same way (or a way the output cannot tell apart), anything else could not run", () => {
    expect(verdictOfRun({ exitCode: 0, timedOut: false, output: '' }, undefined)).toBe('passes');
    expect(verdictOfRun({ exitCode: 1, timedOut: false, output: nodeFail('a') }, undefined)).toBe('fails');
    expect(verdictOfRun({ exitCode: 1, timedOut: false, output: nodeFail('a') }, { exitCode: 1, output: nodeFail('a') })).toBe('as-before');
    expect(verdictOfRun({ exitCode: 1, timedOut: false, output: nodeFail('b') }, { exitCode: 1, output: nodeFail('a') })).toBe('fails');
    expect(verdictOfRun({ exitCode: 1, timedOut: false, output: '' }, { exitCode: 1, output: '' })).toBe('as-before');
    expect(verdictOfRun({ exitCode: 2, timedOut: false, output: '' }, undefined)).toBe('not-run');
    expect(verdictOfRun({ exitCode: null, timedOut: true, output: '' }, undefined)).toBe('not-run');
  });

  it('knows what a task builds on, and that leaving a task out leaves out the tasks built on it', () => {
    expect([...ancestors(tasks, 't2')]).toEqual(['t1']);
    expect([...leftOutWith(tasks, 't1')].sort()).toEqual(['t1', 't2']);
    expect([...leftOutWith(tasks, 't3')]).toEqual(['t3']);
  });

  const integrated = { exitCode: 1, output: nodeFail('sum adds') };
  it('the task whose branch fails alone is the cause; a task built on it fails too, but carries its work, so it is not blamed', () => {
    const runs = [
      run({ kind: 'base' }, 0),
      run({ kind: 'alone', task: 't1' }, 1, nodeFail('sum adds')),
      run({ kind: 'alone', task: 't2' }, 1, nodeFail('sum adds')),
      run({ kind: 'alone', task: 't3' }, 0),
      run({ kind: 'alone', task: 't4' }, 0),
    ];
    expect(decide(tasks, runs, integrated)).toEqual({ kind: 'tasks', tasks: ['t1'], how: 'alone' });
  });

  it("a test task's branch fails with a stack into code the task it builds on wrote, whose own branch passes: the code's task is the cause", () => {
    const stack = `✖ sum adds (1ms)\n  TypeError: x is not iterable\n      at sum (file:///w/src/sum.js:2:9)\n      at TestContext.<anonymous> (file:///w/test/sum.test.js:6:10)`;
    const runs = [run({ kind: 'base' }, 0), run({ kind: 'alone', task: 't1' }, 0), run({ kind: 'alone', task: 't2' }, 1, stack)];
    expect(decide(tasks, runs, integrated)).toEqual({ kind: 'tasks', tasks: ['t1'], how: 'code', shownBy: ['t2'] });
    // An assertion in the test alone: the test's task.
    expect(
      decide(tasks, [run({ kind: 'base' }, 0), run({ kind: 'alone', task: 't1' }, 0), run({ kind: 'alone', task: 't2' }, 1, nodeFail('sum adds'))], integrated),
    ).toEqual({
      kind: 'tasks',
      tasks: ['t2'],
      how: 'alone',
    });
  });

  it('two independent tasks that each fail alone are both the cause', () => {
    const runs = [
      run({ kind: 'base' }, 0),
      run({ kind: 'alone', task: 't4' }, 1, 'x'),
      run({ kind: 'alone', task: 't3' }, 1, 'y'),
      run({ kind: 'alone', task: 't1' }, 0),
    ];
    expect(decide(tasks, runs, integrated)).toEqual({ kind: 'tasks', tasks: ['t3', 't4'], how: 'alone' });
  });

  it('only a combination fails: the task without which the integrated work passes', () => {
    const runs = [
      run({ kind: 'base' }, 0),
      run({ kind: 'alone', task: 't1' }, 0),
      run({ kind: 'alone', task: 't4' }, 0),
      run({ kind: 'without', task: 't1' }, 1, 'x'),
      run({ kind: 'without', task: 't4' }, 0),
    ];
    expect(decide(tasks, runs, integrated)).toEqual({ kind: 'tasks', tasks: ['t4'], how: 'without' });
  });

  it('the base fails the same way: nobody is to blame; fails differently: the tasks are tried as usual', () => {
    expect(decide(tasks, [run({ kind: 'base' }, 1, nodeFail('sum adds'))], integrated)).toEqual({ kind: 'before' });
    const runs = [
      run({ kind: 'base' }, 1, nodeFail('mean of nothing')),
      run({ kind: 'alone', task: 't1' }, 1, `${nodeFail('mean of nothing')}\n${nodeFail('sum adds')}`, 'fails'),
      run({ kind: 'alone', task: 't4' }, 1, nodeFail('mean of nothing'), 'as-before'),
    ];
    expect(decide(tasks, runs, { exitCode: 1, output: `${nodeFail('mean of nothing')}\n${nodeFail('sum adds')}` })).toEqual({
      kind: 'tasks',
      tasks: ['t1'],
      how: 'alone',
    });
  });

  it('undecided, with the reason, when nothing settles it: the critic model attributes it then', () => {
    expect(
      decide(tasks, [run({ kind: 'base' }, 0), run({ kind: 'alone', task: 't1' }, 0), run({ kind: 'without', task: 't1' }, 1, 'x')], integrated),
    ).toMatchObject({
      kind: 'undecided',
      why: expect.stringContaining('no task'),
    });
    expect(decide(tasks, [run({ kind: 'base' }, 1, ''), run({ kind: 'alone', task: 't1' }, 1, '', 'as-before')], { exitCode: 1, output: '' })).toMatchObject({
      kind: 'undecided',
      why: expect.stringContaining('fails on the base too'),
    });
    expect(decide(tasks, [], integrated)).toMatchObject({ kind: 'undecided', why: expect.stringContaining('could not be re-run') });
  });
});

describe('a failure already on the base (#50)', () => {
  const l = (outcome: Parameters<typeof blamedBy>[0]) => ({ criterion: 'c1', command: 'npm test', runs: [], outcome });
  it('sends back the tasks that own the failing tests, and says which code they hold; without owners, nobody', () => {
    const owned = { kind: 'before' as const, owners: { tasks: ['t1'], tests: ['test/negatives.test.js'], code: ['src/sum.js'] } };
    expect(blamedBy(owned)).toEqual(['t1']);
    expect(describeOutcome(l(owned))).toBe(
      "c1 fails before crew's changes: `npm test` fails the same way on the base branch, and test/negatives.test.js exercises code in t1's files (src/sum.js): that task is to fix it",
    );
    expect(blamedBy({ kind: 'before' })).toEqual([]);
    expect(describeOutcome(l({ kind: 'before' }))).toBe("c1 fails before crew's changes: `npm test` fails the same way on the base branch");
    expect(blamedBy({ kind: 'undecided', why: 'x' })).toEqual([]);
    expect(blamedBy({ kind: 'tasks', tasks: ['t2'], how: 'alone' })).toEqual(['t2']);
  });
});
