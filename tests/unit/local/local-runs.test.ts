import { describe, expect, it } from 'vitest';
import { localBranches, runFolder } from '../../../src/domain/refs';
import { LOCAL_RUN, localRunKey, localRunOfBranch, localRunOfPath, localStatePath, localStatePrefix, pathInRunFolder } from '../../../src/domain/local-runs';
import { localLinks } from '../../../src/adapters/local/forge';

describe('local run paths: local run N is run 1 of issue N', () => {
  it('names the state folder the steps use, and maps it back', () => {
    expect(localRunKey(7)).toEqual({ issue: 7, run: 1 });
    expect(localStatePrefix(7)).toBe(`${runFolder(7, LOCAL_RUN)}/`);
    expect(localStatePath(7, 'tasks/task_t1.json')).toBe('issue-7/run-1/tasks/task_t1.json');
    expect(localRunOfPath('issue-7/run-1/tasks/task_t1.json')).toEqual({ run: 7, rest: 'tasks/task_t1.json' });
    expect(localRunOfPath('issue-7/run-1/')).toEqual({ run: 7, rest: '' });
    expect(localRunOfPath('issue-7/run-1')).toEqual({ run: 7, rest: '' });
    // The issue folder, as steps read it to find the issue's runs, is the run's folder.
    expect(localRunOfPath('issue-7/')).toEqual({ run: 7, rest: '' });
  });

  it('refuses what is not a local run: another run of the issue, a path beside the runs, anything else', () => {
    expect(localRunOfPath('issue-7/run-2/run.json')).toEqual({ error: "local runs have one run per request; 'issue-7/run-2/run.json' names run 2" });
    expect(localRunOfPath('issue-7/refusals/me.json')).toEqual({ error: "'issue-7/refusals/me.json' is outside a run folder" });
    expect(localRunOfPath('issue-0/run-1/')).toEqual({ error: "'issue-0/run-1/' is not a path of a run" });
    expect(localRunOfPath('../etc/passwd')).toEqual({ error: "'../etc/passwd' is not a path of a run" });
    expect(pathInRunFolder('issue-7/run-1/report.md')).toBe('report.md');
    expect(pathInRunFolder('crew.log')).toBe('crew.log');
  });

  it('reads the run back from the branches local runs write, and from no other branch', () => {
    expect(localRunOfBranch(localBranches.task(12, LOCAL_RUN, 't3'))).toBe(12);
    expect(localRunOfBranch(localBranches.integration(12, LOCAL_RUN))).toBe(12);
    expect(localRunOfBranch('crew/12/r1/t3')).toBeUndefined();
    expect(localRunOfBranch('crew/local-0/t1')).toBeUndefined();
    expect(localRunOfBranch('feature/crew/local-3/t1')).toBeUndefined();
  });

  it('gives the links the local forge and crew status show, relative to the project', () => {
    const links = localLinks('/p', '/p/.crew/runs/4');
    expect(links.run).toBe('.crew/runs/4/crew.log');
    expect(links.stateFile('issue-4/run-1')).toBe('.crew/runs/4');
    expect(links.stateFile('issue-4/run-1/retrospective.md')).toBe('.crew/runs/4/retrospective.md');
    expect(links.branch('crew/local-4/t1')).toBe('crew/local-4/t1');
    expect(links.comment(4, 3)).toBe('#comment-3');
  });
});
