import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitRepo } from '../../../src/adapters/git/git-repo';
import { runCommandTool } from '../../../src/agents/command-tools';
import { PathJail } from '../../../src/agents/path-jail';
import { DEFAULT_DENY } from '../../../src/config/schema';
import type { Log } from '../../../src/ports';
import type { CommandRunner } from '../../../src/sandbox/command-runner';
import { commandRunner } from '../../../src/steps/sandbox-setup';

describe('run_command when the sandbox cannot be set up (commandRunner)', () => {
  let ws: string;
  const warnings: string[] = [];
  const log: Log = { info: () => undefined, warn: (m) => void warnings.push(m), checkpoint: () => undefined };
  const REASON = 'crew is not root and has no passwordless sudo, so it cannot create the tool user or its namespaces';
  const noSandbox = async () => ({ reason: REASON });
  const ctx = () => ({ repo: { dir: ws } as GitRepo, log });
  const tool = (r: { runner?: CommandRunner; warning: string | null }) =>
    runCommandTool(new PathJail(ws), { runner: r.runner, unavailable: r.warning ?? undefined, policy: { allow: [], deny: DEFAULT_DENY }, timeoutMs: 10_000, maxOutputBytes: 10_000 });

  beforeAll(async () => {
    ws = await mkdtemp(join(tmpdir(), 'sandbox-setup-'));
  });
  afterAll(async () => {
    await rm(ws, { recursive: true, force: true });
  });

  it('refuses by default, loudly in the log, and tells the model why when it calls run_command', async () => {
    warnings.length = 0;
    const refused = await commandRunner(ctx(), false, [noSandbox]);
    expect(refused).toEqual({ warning: `run_command was refused: no sandbox (${REASON})` });
    expect(warnings).toEqual([`No sandbox: ${REASON}. run_command is refused; set allow_unsandboxed: true in .github/crew.yml to run commands without one.`]);
    await expect(Promise.resolve(tool(refused).run({ command: 'echo hi' }))).rejects.toThrow(`run_command is not available in this run: run_command was refused: no sandbox (${REASON})`);
  });

  it('with allow_unsandboxed, runs commands unsandboxed with a scrubbed environment, and says so', async () => {
    warnings.length = 0;
    process.env.GITHUB_TOKEN_CANARY_FOR_TEST = 'ghs_canary_must_not_show';
    try {
      const allowed = await commandRunner(ctx(), true, [noSandbox]);
      expect(allowed.runner!.sandboxed).toBe(false);
      expect(allowed.warning).toBe(`commands ran without a sandbox (${REASON})`);
      expect(warnings).toEqual([`No sandbox: ${REASON}. allow_unsandboxed is on, so ${allowed.runner!.description}.`]);
      expect(warnings[0]).toContain('NOT sandboxed');
      const out = await tool(allowed).run({ command: 'echo "token=${GITHUB_TOKEN_CANARY_FOR_TEST:-none}"' });
      expect(out).toBe('exit code 0\ntoken=none\n');
    } finally {
      delete process.env.GITHUB_TOKEN_CANARY_FOR_TEST;
    }
  });
});
