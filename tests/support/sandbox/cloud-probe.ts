/**
 * Like probe.ts, but first does what crew's entry does before any step: moves the cloud
 * credentials files out of the workspace (src/sandbox/cloud-credentials.ts). Then runs one
 * command through crew's command runner and prints its output, then `::moved <from> <to>` lines.
 * Usage: cloud-probe.ts <sandboxed|unsandboxed> <workspace> <temp> <command>
 */
import { join } from 'node:path';
import { prepareSandbox, UnsandboxedRunner } from '../../../src/sandbox/command-runner';
import { secureCloudCredentials } from '../../../src/sandbox/cloud-credentials';

const [mode, workspace, temp, command] = process.argv.slice(2) as [string, string, string, string];
const secured = secureCloudCredentials(process.env, workspace, join(temp, 'crew-credentials'));
const runner = mode === 'sandboxed' ? await prepareSandbox(workspace, temp) : { runner: new UnsandboxedRunner(temp) };
if (!('runner' in runner)) {
  console.error(`no sandbox: ${runner.reason}`);
  process.exit(2);
}
const r = await runner.runner.run(command, { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 500_000 });
process.stdout.write(r.output);
for (const m of secured.moved) process.stdout.write(`\n::moved ${m.from} ${m.to}\n`);
process.stdout.write(`::GOOGLE_APPLICATION_CREDENTIALS ${process.env.GOOGLE_APPLICATION_CREDENTIALS}\n`);
