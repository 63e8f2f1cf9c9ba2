import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../support/scenario/run-scenario';
import { freePort } from '../support/free-port';
import { expectFaithful, play } from './helpers';

/**
 * A repository whose tests need what only its setup steps provide (#51): a service on the runner's
 * loopback (a small TCP server standing in for a database), its address exported through GITHUB_ENV, and
 * a toolchain folder in the runner's tool cache put on PATH through GITHUB_PATH, as actions/setup-node
 * puts node there. The sandboxed commands (the worker's `npm test`, the critic's) reach them because
 * `.github/crew.yml` names the variable and the address.
 */
const crewSetup = (port: number) => `name: crew-setup
description: A database and a toolchain for this repository's tests
runs:
  using: composite
  steps:
    - shell: bash
      run: |
        bin="$RUNNER_TOOL_CACHE/fixture-toolchain/1.2.3/x64/bin"
        mkdir -p "$bin" "$RUNNER_TEMP/fixture-db"
        printf '#!/bin/sh\\necho fixture-toolchain 1.2.3\\n' > "$bin/fixture-toolchain"
        chmod 755 "$bin/fixture-toolchain"
        echo "$bin" >> "$GITHUB_PATH"
    - shell: bash
      run: |
        node -e "require('net').createServer((c) => { c.on('error', () => {}); c.end('fixture-db ready\\\\n'); }).listen(${port}, '127.0.0.1')" > "$RUNNER_TEMP/fixture-db/log" 2>&1 &
        for i in $(seq 100); do
          node -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))" && break
          sleep 0.1
        done
        echo "FIXTURE_DB_URL=tcp://127.0.0.1:${port}" >> "$GITHUB_ENV"
        echo "fixture-db listening on 127.0.0.1:${port} in $GITHUB_JOB"
`;

async function playWithServices(form: 'short' | 'full', withSteps: boolean): Promise<{ r: ScenarioResult; workerRun: string; logs: string }> {
  const port = await freePort();
  let workerRun = '';
  let logs = '';
  const r = await play('repository-services', {
    edit: (s) => {
      s.workflow = form;
      s.config = s.config!.replace('__DB_PORT__', String(port));
      if (withSteps) s.repo.files = { ...s.repo.files, '.github/actions/crew-setup/action.yml': crewSetup(port) };
    },
    hooks: {
      beforeClose: async ({ anthropic, runner }) => {
        workerRun = JSON.stringify(anthropic.requests.filter((q) => q.role === 'worker')[1]?.body.messages.at(-1) ?? '');
        logs = runner.runs.flatMap((run) => run.jobs.map((j) => `== ${j.name}\n${j.log.join('\n')}`)).join('\n');
      },
    },
  });
  return { r, workerRun, logs };
}

describe("the setup steps' service, variable and toolchain reach the sandboxed commands (#51)", () => {
  it.each(['short', 'full'] as const)(
    "%s form: the worker's and the critic's `npm test` reach the database and the toolchain, and the run ends in a pull request",
    async (form) => {
      const { r, workerRun, logs } = await playWithServices(form, true);
      expectFaithful(r);
      expect(r.workflow).toBe(form);
      expect(logs).toMatch(/fixture-db listening on 127\.0\.0\.1:\d+ in work/);
      expect(logs).toMatch(/fixture-db listening on 127\.0\.0\.1:\d+ in critic/);
      // The worker's own run_command, in the sandbox of the work job.
      expect(workerRun).toContain('exit code 0');
      expect(workerRun).toMatch(/pass 3/);
      expect(r.pulls).toHaveLength(1);
      expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
    },
    300_000,
  );

  it('without the setup steps, the critic says the variable was never set and points at the setup steps; no pull request', async () => {
    const { r, logs } = await playWithServices('short', false);
    expect(r.github.violations).toEqual([]);
    expect(r.runnerErrors).toEqual([]);
    expect(r.pulls).toHaveLength(0);
    expect(logs).not.toContain('fixture-db listening');
    const said = r.issue.comments.map((c) => c.body).join('\n');
    expect(said).toMatch(/`sandbox_env` names FIXTURE_DB_URL, which no setup step set/);
    expect(said).toContain('.github/actions/crew-setup/action.yml');
  }, 300_000);
});
