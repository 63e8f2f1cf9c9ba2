import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../support/scenario/run-scenario';
import { expectFaithful, play } from './helpers';

/**
 * The repository's own setup steps (#51): a local composite action at .github/actions/crew-setup that
 * both workflow forms run before crew in the jobs that run the repository's code. Here it puts a tool on
 * PATH (through GITHUB_PATH, as actions/setup-node does) that only it provides, and crew's `setup:`
 * command needs that tool.
 */
const CREW_SETUP = `name: crew-setup
description: This repository's tools for crew's jobs
runs:
  using: composite
  steps:
    - shell: bash
      run: |
        mkdir -p "$RUNNER_TEMP/crew-setup-bin"
        printf '#!/bin/sh\\necho built-by-the-setup-steps\\n' > "$RUNNER_TEMP/crew-setup-bin/fixture-tool"
        chmod 755 "$RUNNER_TEMP/crew-setup-bin/fixture-tool"
        echo "$RUNNER_TEMP/crew-setup-bin" >> "$GITHUB_PATH"
        echo "crew-setup ran in $GITHUB_JOB from $GITHUB_ACTION_PATH"
`;

async function playWithSetupSteps(form: 'short' | 'full', withSteps: boolean): Promise<{ r: ScenarioResult; toolOutput: string; logs: Map<string, string> }> {
  let toolOutput = '';
  const logs = new Map<string, string>();
  const r = await play('worker-setup', {
    edit: (s) => {
      s.workflow = form;
      s.config = s.config!.replace('mkdir -p build && echo built-by-setup > build/out.txt', 'mkdir -p build && fixture-tool > build/out.txt');
      if (withSteps) s.repo.files['.github/actions/crew-setup/action.yml'] = CREW_SETUP;
    },
    hooks: {
      beforeClose: async ({ anthropic, runner }) => {
        toolOutput = JSON.stringify(anthropic.requests.filter((q) => q.role === 'worker')[1]?.body.messages.at(-1) ?? '');
        for (const run of runner.runs) for (const j of run.jobs) logs.set(j.name, `${logs.get(j.name) ?? ''}${j.log.join('\n')}\n`);
      },
    },
  });
  return { r, toolOutput, logs };
}

describe("the repository's own setup steps (.github/actions/crew-setup, #51)", () => {
  it.each(['short', 'full'] as const)(
    "run before crew in the work and critic jobs of the %s form: the tool they put on PATH reaches crew's setup, and the run ends in a pull request",
    async (form) => {
      const { r, toolOutput, logs } = await playWithSetupSteps(form, true);
      expectFaithful(r);
      expect(r.workflow).toBe(form);
      const ran = [...logs]
        .filter(([, log]) => /crew-setup ran in \w+ from \S+\/\.github\/actions\/crew-setup/.test(log))
        .map(([name]) => name.replace(/^crew \/ /, ''));
      expect(ran.sort()).toEqual(['critic', 'work (t1)']);
      expect(toolOutput).toContain('built-by-the-setup-steps');
      expect(r.pulls).toHaveLength(1);
      expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
    },
    300_000,
  );

  it('without them, the setup command that needs their tool fails, says which command and points at the setup steps', async () => {
    const { r, logs } = await playWithSetupSteps('short', false);
    // The task stops at setup (crew then asks the decomposer, which this script does not answer).
    expect(r.github.violations).toEqual([]);
    expect(r.runnerErrors).toEqual([]);
    expect(r.pulls).toHaveLength(0);
    expect([...logs.values()].join('\n')).not.toContain('crew-setup ran');
    const said = r.issue.comments.map((c) => c.body).join('\n');
    expect(said).toMatch(/the setup command `mkdir -p build && fixture-tool > build\/out.txt` exited with 127/);
    expect(said).toContain('.github/actions/crew-setup/action.yml');
  }, 300_000);
});
