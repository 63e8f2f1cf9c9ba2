import { resolve } from 'node:path';
import { ScriptError } from '../adapters/scripted/model';
import { ConfigError } from '../config/schema';
import { InstancesError } from '../eval/instances';
import { InitDeclined } from '../init/index';
import type { Output } from '../local/live-view';
import { UsageError } from '../local/workspace';
import { redact } from '../text/redact';
import { CREW_VERSION } from '../version';
import { parseArgs, USAGE, type Command } from './args';
import { openProject } from './compose';
import { doctor } from './doctor';
import { evaluate } from './eval';
import { initCommand } from './init';
import { list, show, status } from './inspect';
import { run } from './run';

/** The `crew` command: exit 0 done, 1 not done, 2 usage or configuration error, 130 interrupted. */
export async function main(argv: string[], out: Output = process.stdout, tty = Boolean(process.stdout.isTTY)): Promise<number> {
  let command: Command;
  try {
    command = parseArgs(argv, process.cwd());
    if (command.kind === 'help') {
      out.write(`${USAGE}\n`);
      return 0;
    }
    if (command.kind === 'version') {
      out.write(`crew ${CREW_VERSION}\n`);
      return 0;
    }
    if (command.kind === 'doctor') return await doctor(command, out);
    if (command.kind === 'eval') return await evaluate(command, out);
    const project = await openProject(resolve(command.project));
    if (command.kind === 'init') return await initCommand(project, command, out);
    if (command.kind === 'list') return await list(project, out);
    if (command.kind === 'status') return await status(project, command.run, out);
    if (command.kind === 'show') return await show(project, command, out);
    return await run(project, command, out, tty);
  } catch (e) {
    if (e instanceof InitDeclined) {
      out.write(`crew: ${e.message}\n`);
      return 1;
    }
    if (e instanceof UsageError) {
      out.write(`crew: ${e.message}\n`);
      return 2;
    }
    if (e instanceof InstancesError) {
      out.write(`crew eval: ${e.message}\nNothing was played.\n`);
      return 2;
    }
    if (e instanceof ConfigError || e instanceof ScriptError) {
      out.write(`crew: ${e.message}\nThe run did not start.\n`);
      return 2;
    }
    out.write(`crew: ${redact((e as Error).message)}\n`);
    return 1;
  }
}
