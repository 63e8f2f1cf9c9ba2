import { describe, expect, it } from 'vitest';
import { runCommandTool } from '../../../src/agents/command-tools';
import { PathJail } from '../../../src/agents/path-jail';
import { readJobTimeout, saveMarginMinutes } from '../../../src/config/job-limit';
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
