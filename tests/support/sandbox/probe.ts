/**
 * Runs one command through crew's command runner from a process that, like crew in
 * a job, received its secrets in its initial environment (where /proc/<pid>/environ
 * shows them). Usage: probe.ts <sandboxed|unsandboxed> <workspace> <temp> <command>
 *
 * With CREW_PROBE_CLOUD=1 it first does what crew's entry does before any step: moves the cloud
 * credentials files out of the workspace (src/sandbox/cloud-credentials.ts); after the command's
 * output it prints `::moved <from> <to>` lines and where GOOGLE_APPLICATION_CREDENTIALS points.
 */
import { join } from 'node:path';
import { secureCloudCredentials } from '../../../src/sandbox/cloud-credentials';
import { prepareSandbox, UnsandboxedRunner } from '../../../src/sandbox/command-runner';

const [mode, workspace, temp, command] = process.argv.slice(2) as [string, string, string, string];
const secured = process.env.CREW_PROBE_CLOUD === '1' ? secureCloudCredentials(process.env, workspace, join(temp, 'crew-credentials')) : undefined;
const runner = mode === 'sandboxed' ? await prepareSandbox(workspace, temp) : { runner: new UnsandboxedRunner(temp) };
if (!('runner' in runner)) {
  console.error(`no sandbox: ${runner.reason}`);
  process.exit(2);
}
const r = await runner.runner.run(command, { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 500_000 });
process.stdout.write(r.output);
if (secured) {
  for (const m of secured.moved) process.stdout.write(`\n::moved ${m.from} ${m.to}\n`);
  process.stdout.write(`::GOOGLE_APPLICATION_CREDENTIALS ${process.env.GOOGLE_APPLICATION_CREDENTIALS}\n`);
}
