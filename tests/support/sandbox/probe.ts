/**
 * Runs one command through crew's command runner from a process that, like crew in
 * a job, received its secrets in its initial environment (where /proc/<pid>/environ
 * shows them). Usage: probe.ts <sandboxed|unsandboxed> <workspace> <temp> <command>
 */
import { prepareSandbox, UnsandboxedRunner } from '../../../src/sandbox/command-runner';

const [mode, workspace, temp, command] = process.argv.slice(2) as [string, string, string, string];
const runner = mode === 'sandboxed' ? await prepareSandbox(workspace, temp) : { runner: new UnsandboxedRunner(temp) };
if (!('runner' in runner)) {
  console.error(`no sandbox: ${runner.reason}`);
  process.exit(2);
}
const r = await runner.runner.run(command, { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 500_000 });
process.stdout.write(r.output);
