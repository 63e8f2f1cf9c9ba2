import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { checkCommand, type CommandPolicy } from '../domain/command-policy';
import { HARDENING } from '../domain/git-hardening';
import type { CommandRunner } from '../sandbox/command-runner';
import { capOutput } from '../sandbox/command-runner';
import type { PathJail } from './path-jail';
import type { AgentTool } from './tool-loop';

const exec = promisify(execFile);

export interface CommandToolOptions {
  runner: CommandRunner | undefined;
  /** Why commands cannot run, when there is no runner. */
  unavailable?: string;
  policy: CommandPolicy;
  timeoutMs: number;
  maxOutputBytes: number;
  /** `allowlist`: commands reach the allowed hosts through crew's proxy (network.tools); otherwise they have no network. */
  network?: 'allowlist';
  /** No command runs past this time (epoch ms): the job's limit is near. */
  until?: number;
  now?: () => number;
}

/** run_command: a shell command in the checkout, through the policy and the sandbox. */
export function runCommandTool(jail: PathJail, o: CommandToolOptions): AgentTool {
  return {
    spec: {
      name: 'run_command',
      description: `Run a shell command in the repository root (${o.network === 'allowlist' ? "network: only the repository's allowed hosts, through the proxy in HTTP_PROXY/HTTPS_PROXY; others are refused" : 'no network'}). Exit code and output (capped) come back. Times out after ${Math.round(o.timeoutMs / 1000)} s.`,
      input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    },
    async run(input, facts) {
      const command = (input as { command?: unknown })?.command;
      if (typeof command !== 'string') throw new Error("'command' must be a string");
      if (!o.runner) throw new Error(`run_command is not available in this run: ${o.unavailable ?? 'no sandbox'}`);
      const verdict = checkCommand(command, o.policy);
      if (!verdict.ok) throw new Error(`refused: ${verdict.reason}`);
      const left = o.until === undefined ? Infinity : o.until - (o.now ?? Date.now)();
      if (left <= 0) throw new Error("refused: this job's time is up; crew is saving the work so far");
      const timeoutMs = Math.min(o.timeoutMs, left);
      const r = await o.runner.run(command, { cwd: jail.rootDir, timeoutMs, maxOutputBytes: o.maxOutputBytes });
      if (facts) Object.assign(facts, r.timedOut ? { exitCode: null, timedOut: true } : { exitCode: r.exitCode });
      const head = r.timedOut
        ? `timed out after ${Math.round(timeoutMs / 1000)} s (killed)${timeoutMs < o.timeoutMs ? " at the job's time limit" : ''}`
        : `exit code ${r.exitCode}`;
      return `${head}${r.truncated ? ' (output cut)' : ''}\n${r.output}`;
    },
  };
}

/** search: `git grep` over tracked and untracked files; the pattern and path never become git options. */
export function searchTool(jail: PathJail, maxOutputBytes: number): AgentTool {
  return {
    spec: {
      name: 'search',
      description: 'Search file contents with a regular expression (git grep -E). Returns matching lines as path:line:text.',
      input_schema: {
        type: 'object',
        properties: { pattern: { type: 'string' }, path: { type: 'string', description: 'Folder or file to search; the whole repository by default' } },
        required: ['pattern'],
      },
    },
    async run(input) {
      const i = (input ?? {}) as { pattern?: unknown; path?: unknown };
      if (typeof i.pattern !== 'string' || !i.pattern) throw new Error("'pattern' must be a non-empty string");
      const where = jail.relative(i.path ?? '.');
      try {
        const { stdout } = await exec(
          'git',
          [...HARDENING.flatMap(([k, v]) => ['-c', `${k}=${v}`]), 'grep', '--untracked', '-n', '-I', '-E', '-e', i.pattern, '--', where],
          { cwd: jail.rootDir, maxBuffer: 20 * 1024 * 1024, env: { PATH: process.env.PATH, HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' } },
        );
        return capOutput(stdout, maxOutputBytes).text;
      } catch (e) {
        const err = e as { code?: number; stderr?: string };
        if (err.code === 1) return 'no matches';
        throw new Error(`search failed: ${(err.stderr ?? String(e)).trim()}`);
      }
    },
  };
}
