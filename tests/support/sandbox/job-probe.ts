/**
 * What a work or critic job does before its agent starts, as crew's process in a job does it: the egress
 * proxy, the sandbox, then setup on a model-written tree (`<command>`) with the allowlist or its fallback
 * (src/toolbox/sandbox-setup.ts, `prepareTools`), with RUNNER_TEMP at `<temp>`. It prints the job's log
 * lines, `::mode <egress mode> <setup outcome>`, then `::done <ms since the epoch>`, and returns: the
 * process must then end by itself, as a job's does after its last step.
 * Usage: job-probe.ts <workspace> <temp> <command>
 */
import { prepareTools } from '../../../src/toolbox/sandbox-setup';
import { DEFAULT_NETWORK } from '../../../src/toolbox/egress';

const [workspace, temp, command] = process.argv.slice(2) as [string, string, string];
process.env.RUNNER_TEMP = temp;
const said = (m: string) => void process.stdout.write(`${m}\n`);
const prepared = await prepareTools(
  { repo: { dir: workspace } as never, log: { info: said, warn: said, checkpoint: () => undefined } },
  { setup: [command], command_timeout_seconds: 20, allow_unsandboxed: false, network: DEFAULT_NETWORK },
  { trusted: false },
);
said(`::mode ${prepared.egress?.mode} ${prepared.setupFailure ?? 'setup ok'}`);
said(`::done ${Date.now()}`);
