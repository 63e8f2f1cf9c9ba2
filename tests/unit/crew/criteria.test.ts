import { describe, expect, it } from 'vitest';
import { commandProblem, configCriteria, describeCriterion, isHollow, statedCriteria, vagueness } from '../../../src/domain/criteria';
import { checkPlanRules } from '../../../src/domain/plan-review';
import type { Plan } from '../../../src/domain/plan';

describe('statedCriteria', () => {
  it('reads the list under a "Done when" heading, in its many spellings', () => {
    expect(statedCriteria('Intro\n\nDone when:\n- `npm test` passes\n- the README documents it\n\nMore prose.')).toEqual([
      '`npm test` passes',
      'the README documents it',
    ]);
    expect(statedCriteria('## Acceptance criteria\n1. a\n2) b\n## Notes\n- not this')).toEqual(['a', 'b']);
    expect(statedCriteria('**Done when**\n* [ ] one\n* [x] two')).toEqual(['one', 'two']);
    expect(statedCriteria('Done when: the build is green')).toEqual(['the build is green']);
  });

  it('falls back to checklist items, and finds nothing in plain prose', () => {
    expect(statedCriteria('Please:\n- [ ] add X\n- [x] remove Y\n- plain bullet')).toEqual(['add X', 'remove Y']);
    expect(statedCriteria('Make it nicer.')).toEqual([]);
  });
});

describe('vagueness', () => {
  it('flags criteria that cannot be checked as written', () => {
    for (const t of ['It is fast enough', 'The code is clean', 'Better error messages', 'The UI is user-friendly', 'Handles input properly', 'Readable code'])
      expect(vagueness(t), t).toBeDefined();
  });
  it('lets measurable criteria through', () => {
    for (const t of ['Responds in under 200 ms', 'README lists slugify with an example', 'At least 3 tests cover parse()', '`npm test` passes'])
      expect(vagueness(t), t).toBeUndefined();
  });
});

describe('isHollow', () => {
  it('catches criteria that cannot fail', () => {
    for (const t of ['Works correctly', 'it works', 'The task is done', 'Done.', 'Implemented', 'no errors', 'The feature works as expected'])
      expect(isHollow(t), t).toBe(true);
  });
  it('keeps real ones', () => {
    for (const t of ['`npm test` exits 0', 'parse("") throws a TypeError', 'README has a Usage section']) expect(isHollow(t), t).toBe(false);
  });
});

describe('commandProblem', () => {
  it('accepts one-line commands and explains the rest', () => {
    expect(commandProblem('npm test')).toBeUndefined();
    expect(commandProblem('node --test && ./scripts/check.sh "a b"')).toBeUndefined();
    expect(commandProblem('')).toBe('it has no command');
    expect(commandProblem('npm test\nnpm run lint')).toMatch(/several lines/);
    expect(commandProblem('Make sure the tests pass')).toBeUndefined(); // looks like a program name; the reviewer model judges intent
    expect(commandProblem('"unbalanced')).toMatch(/program name|quote/);
    expect(commandProblem('echo "unbalanced')).toMatch(/unbalanced quote/);
    expect(commandProblem('`npm test`')).toMatch(/program name/);
  });
});

describe('config criteria and descriptions', () => {
  it('turns configured commands into command criteria after intake’s', () => {
    expect(configCriteria(['npm test'], 3)).toEqual([{ id: 'c3', text: '`npm test` exits 0', kind: 'command', command: 'npm test' }]);
    expect(describeCriterion({ id: 'c1', text: 'Tests pass', kind: 'command', command: 'npm test' })).toBe('Tests pass (`npm test`)');
    expect(describeCriterion({ id: 'c3', text: '`npm test` exits 0', kind: 'command', command: 'npm test' })).toBe('`npm test` exits 0');
  });
});

describe('checkPlanRules (the plan review’s deterministic half)', () => {
  const good: Plan = {
    summary: 's',
    criteria: [{ id: 'c1', text: 'tests pass', kind: 'command', command: 'npm test' }],
    tasks: [{ id: 't1', title: 'a', description: 'd', persona: 'coder', tier: 'sonnet', dependsOn: [], files: ['src/a.js'], criteria: ['a() returns 1'] }],
  };
  it('passes a sound plan', () => {
    expect(checkPlanRules(good)).toEqual([]);
  });
  it('finds tasks without criteria, hollow criteria and unrunnable commands', () => {
    const bad: Plan = {
      ...good,
      criteria: [
        { id: 'c1', text: 'Works correctly', kind: 'semantic' },
        { id: 'c2', text: 'lint', kind: 'command', command: 'npm run lint\nnpm test' },
      ],
      tasks: [
        { ...good.tasks[0]!, criteria: [] },
        { ...good.tasks[0]!, id: 't2', criteria: ['The task is done'], files: ['.github/workflows/ci.yml'] },
      ],
    };
    const problems = checkPlanRules(bad).map((f) => `${f.aspect}: ${f.problem}`);
    expect(problems).toEqual([
      'content: criterion c1: "Works correctly" cannot fail, so it proves nothing',
      'form: criterion c2: command criterion "lint" is not runnable: the command spans several lines; use one command (join with &&)',
      'completeness: task t1 has no done criteria of its own',
      'content: task t2: "The task is done" cannot fail, so it proves nothing',
    ]);
  });
});
