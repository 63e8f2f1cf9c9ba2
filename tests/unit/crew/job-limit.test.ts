import { describe, expect, it } from 'vitest';
import { runCommandTool } from '../../../src/agents/command-tools';
import { PathJail } from '../../../src/agents/path-jail';
import { callsCrewJobs, readJobTimeout, saveMarginMinutes } from '../../../src/config/job-limit';
import { workLegTask } from '../../../src/domain/workflow-jobs';
import { readFileSync } from 'node:fs';
import { DEFAULT_DENY } from '../../../src/config/schema';
import type { CommandRunner } from '../../../src/sandbox/command-runner';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WORKFLOW = `jobs:
  work:
    runs-on: ubuntu-latest
    timeout-minutes: 60
  advance:
    runs-on: ubuntu-latest
  odd:
    timeout-minutes: \${{ inputs.minutes }}
`;

describe("a job's time limit, read from its workflow", () => {
  it('the job’s timeout-minutes; GitHub’s 360 when it sets none; unreadable, with the reason, otherwise', () => {
    expect(readJobTimeout(WORKFLOW, 'work', 'crew.yml')).toEqual({ minutes: 60 });
    expect(readJobTimeout(WORKFLOW, 'advance', 'crew.yml')).toEqual({ minutes: 360 });
    expect(readJobTimeout(WORKFLOW, 'odd', 'crew.yml')).toEqual({
      unreadable: 'jobs.odd.timeout-minutes in crew.yml is "${{ inputs.minutes }}", which only GitHub can evaluate',
    });
    expect(readJobTimeout(WORKFLOW, 'missing', 'crew.yml')).toEqual({ unreadable: "crew.yml has no job 'missing'" });
    expect(readJobTimeout(undefined, 'work', 'crew.yml')).toEqual({ unreadable: 'crew.yml is not on the default branch' });
    expect(readJobTimeout('jobs: [', 'work', 'crew.yml')).toMatchObject({ unreadable: expect.stringMatching(/^crew.yml is not valid YAML/) });
  });

  it("the short form's limits are crew-jobs.yml's: a caller file whose job calls it holds none", () => {
    const short = readFileSync(join(__dirname, '../../../workflow-templates/crew.yml'), 'utf8');
    expect(callsCrewJobs(short)).toBe(true);
    expect(callsCrewJobs('jobs:\n  crew:\n    uses: ./.github/workflows/crew-jobs.yml\n')).toBe(true);
    expect(callsCrewJobs(readFileSync(join(__dirname, '../../../.github/workflows/crew.yml'), 'utf8'))).toBe(false);
    expect(callsCrewJobs('jobs:\n  x:\n    uses: someone/else/.github/workflows/not-crew-jobs.yml@v1\n')).toBe(false);
    expect(callsCrewJobs(undefined)).toBe(false);
    expect(callsCrewJobs('jobs: [')).toBe(false);
    const jobs = readFileSync(join(__dirname, '../../../.github/workflows/crew-jobs.yml'), 'utf8');
    expect(readJobTimeout(jobs, 'work', 'crew-jobs.yml')).toEqual({ minutes: 60 });
  });

  it('finds a work leg by the name GitHub gives it, in either form', () => {
    expect(workLegTask('work (t3)')).toEqual(['t3']);
    expect(workLegTask('crew / work (t3)')).toEqual(['t3']);
    expect(workLegTask('my crew job / work (t12)')).toEqual(['t12']);
    for (const other of ['crew / route', 'work', 'crew / advance', 'build (t1)', 'crew / build / work (t1)', 'work (t1) / x'])
      expect(workLegTask(other), other).toEqual([]);
  });

  it('stops a tenth of the limit before it, and at least 3 minutes', () => {
    expect(saveMarginMinutes(60)).toBe(6);
    expect(saveMarginMinutes(10)).toBe(3);
  });
});

describe('run_command near the job’s limit', () => {
  const calls: number[] = [];
  const runner: CommandRunner = {
    description: 'test',
    sandboxed: true,
    run: async (_cmd, opts) => {
      calls.push(opts.timeoutMs);
      return { exitCode: 0, output: 'ok', timedOut: false, truncated: false };
    },
  };
  const jail = new PathJail(mkdtempSync(join(tmpdir(), 'until-')));
  const tool = (now: number) =>
    runCommandTool(jail, { runner, policy: { allow: [], deny: DEFAULT_DENY }, timeoutMs: 600_000, maxOutputBytes: 1000, until: 1_000_000, now: () => now });

  it('a command gets no more time than the job has left, and none once it is up', async () => {
    await tool(970_000).run({ command: 'npm test' });
    await tool(0).run({ command: 'npm test' });
    expect(calls).toEqual([30_000, 600_000]);
    await expect(tool(1_000_000).run({ command: 'npm test' })).rejects.toThrow(/this job's time is up/);
  });
});
