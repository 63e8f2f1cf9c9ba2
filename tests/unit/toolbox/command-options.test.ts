import { describe, expect, it } from 'vitest';
import { runCommandTool } from '../../../src/agents/command-tools';
import { PathJail } from '../../../src/agents/path-jail';
import { parseConfig } from '../../../src/config/schema';
import { UnsandboxedRunner } from '../../../src/sandbox/command-runner';
import { agentCommands, MAX_OUTPUT_BYTES } from '../../../src/toolbox/command-options';

/** The agents' run_command options, built in one place for the worker, the critic and eval's single way (#53). */
describe('agentCommands', () => {
  const config = parseConfig('command_timeout_seconds: 42\n');
  const runner = new UnsandboxedRunner('/nowhere');

  it('tells the model the network network.tools gives its commands, and the limits from the config', () => {
    const o = agentCommands({ runner, warning: null, egress: { tools: 'allowlist' } }, config);
    expect(o).toEqual({ runner, unavailable: undefined, policy: config.commands, timeoutMs: 42_000, maxOutputBytes: MAX_OUTPUT_BYTES, network: 'allowlist' });
    expect(runCommandTool(new PathJail(process.cwd()), o).spec.description).toContain("Network: only the repository's allowed hosts");
  });

  it('gives no network where the egress gives the agents none, or there is none; says why commands cannot run; carries the job’s deadline', () => {
    const now = () => 5;
    for (const egress of [{ tools: 'none' }, { tools: 'offline' }, undefined])
      expect(agentCommands({ runner, warning: null, egress }, config).network).toBeUndefined();
    expect(agentCommands({ warning: 'no sandbox', egress: undefined }, config)).toMatchObject({ runner: undefined, unavailable: 'no sandbox' });
    expect(agentCommands({ runner, warning: null }, config, { until: 10, now })).toMatchObject({ until: 10, now });
  });
});
