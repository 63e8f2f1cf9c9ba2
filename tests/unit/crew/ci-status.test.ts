import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCiWorkflows } from '../../../src/config/ci-workflows';
import { failedCiRuns, runningCiRuns, type CiRunFact } from '../../../src/domain/ci-status';

const HEAD = 'a'.repeat(40);
const BRANCH = 'crew/1/r1/integration';
const run = (id: number, patch: Partial<CiRunFact> = {}): CiRunFact => ({
  id,
  workflow: 'CI',
  path: '.github/workflows/ci.yml',
  url: `https://github.com/acme/widgets/actions/runs/${id}`,
  status: 'completed',
  conclusion: 'failure',
  headSha: HEAD,
  headBranch: BRANCH,
  headRepo: 'acme/widgets',
  ...patch,
});
const check = (name: string, r?: CiRunFact) => ({ name, status: 'completed', conclusion: 'failure', ...(r ? { run: r } : {}) });

describe('the CI workflows fix_ci is named for, read from crew’s own workflow', () => {
  it('the names under on.workflow_run.workflows: the shipped workflow’s, a single name, none; unreadable with the reason', () => {
    expect(readCiWorkflows(readFileSync('.github/workflows/crew.yml', 'utf8'), 'crew.yml')).toEqual({ names: ['CI'] });
    expect(readCiWorkflows('on:\n  workflow_run:\n    workflows: Tests\n', 'crew.yml')).toEqual({ names: ['Tests'] });
    expect(readCiWorkflows('on:\n  workflow_run:\n    workflows: [CI, Lint]\n    types: [completed]\n', 'crew.yml')).toEqual({ names: ['CI', 'Lint'] });
    // No workflow_run trigger: crew gets no CI events, and looks at no CI runs either.
    expect(readCiWorkflows('on: [issue_comment]\n', 'crew.yml')).toEqual({ names: [] });
    expect(readCiWorkflows('on:\n  issue_comment:\n', 'crew.yml')).toEqual({ names: [] });
    expect(readCiWorkflows(undefined, 'crew.yml')).toEqual({ unreadable: 'crew.yml is not on the default branch' });
    expect(readCiWorkflows('on: [', 'crew.yml')).toMatchObject({ unreadable: expect.stringMatching(/^crew\.yml is not valid YAML/) });
    expect(readCiWorkflows('on:\n  workflow_run:\n    workflows: { a: 1 }\n', 'crew.yml')).toEqual({
      unreadable: 'on.workflow_run.workflows in crew.yml is {"a":1}, not a list of workflow names',
    });
  });
});

describe('the CI on a head, from one reading of its checks', () => {
  const head = { workflows: ['CI'], headSha: HEAD, headBranch: BRANCH, repo: 'acme/widgets' };

  it('a failed run of a named workflow on the pull request’s head is fix_ci’s, once however many of its jobs failed', () => {
    const ci = run(7);
    expect(failedCiRuns([check('test', ci), check('lint', ci)], head)).toEqual([ci]);
    expect(runningCiRuns([check('test', ci)], head)).toEqual([]);
  });

  it('a run still going is left to its own event; a passing, cancelled or unnamed workflow, another head, branch or repository, and an app’s check are not fix_ci’s', () => {
    const going = run(8, { status: 'in_progress', conclusion: null });
    expect(runningCiRuns([check('test', going)], head)).toEqual([going]);
    expect(failedCiRuns([check('test', going)], head)).toEqual([]);
    const others = [
      run(9, { conclusion: 'success' }),
      run(10, { conclusion: 'cancelled' }),
      run(11, { workflow: 'Nightly' }),
      run(12, { headSha: 'b'.repeat(40) }),
      run(13, { headBranch: 'crew/1/r1/t1' }),
      run(14, { headRepo: 'mallory/widgets' }),
    ];
    expect(failedCiRuns([...others.map((r) => check('test', r)), check('ci/app')], head)).toEqual([]);
    // Oldest first, and the repository's name in any case.
    expect(failedCiRuns([check('b', run(21, { headRepo: 'Acme/Widgets' })), check('a', run(20))], head).map((r) => r.id)).toEqual([20, 21]);
  });
});
