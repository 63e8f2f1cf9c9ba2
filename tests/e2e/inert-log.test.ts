import { beforeAll, describe, expect, it } from 'vitest';
import type { JobRun } from '../support/runner/workflow-runner';
import type { ScenarioResult } from '../support/scenario/run-scenario';
import { expectFaithful, play } from './helpers';

/**
 * #46 item 2: one line of model text must not stop a run. The fake runner reads workflow commands
 * as GitHub's does (tests/support/runner/workflow-commands.ts): `##[add-mask]1` anywhere in a line
 * would mask every "1" and drop the route job's outputs (`issue`, `run`), and `::stop-commands::x`
 * after white space would silence the rest of the step's annotations.
 */
describe('model text in the job log is no workflow command', () => {
  let r: ScenarioResult;
  const jobs: JobRun[] = [];
  beforeAll(async () => {
    r = await play('inert-log', {
      hooks: {
        beforeClose: async ({ runner }) => {
          for (const run of runner.runs) jobs.push(...run.jobs);
        },
      },
    });
  }, 600_000);

  it('the run ends in a pull request, every job succeeded and kept its outputs', () => {
    expectFaithful(r);
    expect(r.jobs.filter((j) => j.result !== 'success' && j.result !== 'skipped')).toEqual([]);
    expect(r.pulls.map((p) => p.head)).toContain('crew/1/r1/integration');
    for (const j of jobs)
      expect(
        j.annotations.filter((a) => /Skip output|CRITIC|Unable to process/.test(a.message)),
        j.name,
      ).toEqual([]);
  });

  it('each tagged piece of model text reached a job log, and the runner took none of it as a command', () => {
    const log = (id: string) => jobs.filter((j) => j.id === id).flatMap((j) => j.rawLog);
    // Where each piece was printed: the intake's and the worker's words and the command's first line in
    // their turn's group, the critic's reason on its own lines.
    expect(log('route').join('\n')).toMatch(/INTAKE read the issue\. ## \[add-mask\]1/);
    expect(log('work').join('\n')).toMatch(/WORKER starts\. ## \[add-mask\]1/);
    expect(log('work').join('\n')).toMatch(/COMMAND says ## \[add-mask\]1/);
    const critic = jobs.flatMap((j) => j.rawLog).filter((l) => /CRITIC|stop-commands/.test(l));
    expect(critic).toEqual(expect.arrayContaining([expect.stringContaining('CRITIC NOTES.md is there. ## [add-mask]1'), '  : :stop-commands::x']));
    // Only crew's own commands: groups, its warnings, and the masks of its secrets.
    const commands = jobs.flatMap((j) => (j.commands ?? []).map((c) => ({ job: j.name, command: c.command, data: c.data, form: c.form })));
    expect(commands.length).toBeGreaterThan(0);
    expect(
      commands.filter((c) => c.form === 'v1' || c.command === 'stop-commands' || c.command === 'error' || (c.command === 'add-mask' && c.data.length < 8)),
    ).toEqual([]);
    expect(commands.filter((c) => /##\[|::|INTAKE|WORKER|COMMAND|CRITIC/.test(c.data))).toEqual([]);
    // No line is masked: nothing registered "1".
    expect(jobs.flatMap((j) => j.log).filter((l) => l.includes('***'))).toEqual([]);
  });
});
