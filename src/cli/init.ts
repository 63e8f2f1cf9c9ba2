import { init } from '../init/index';
import type { Project } from '../local/workspace';
import type { Output } from '../local/live-view';
import type { Command } from './args';
import { lineReader, originRepo } from './compose';

/** `crew init`: the workflow and .github/crew.yml for this clone, shown and asked about first. */
export async function initCommand(project: Project, cmd: Extract<Command, { kind: 'init' }>, out: Output): Promise<number> {
  const lines = process.stdin.isTTY ? lineReader() : undefined;
  try {
    await init({
      dir: project.dir,
      form: cmd.form,
      yes: cmd.yes,
      ask: lines ? async (q) => (out.write(`${q} `), /^y(es)?$/i.test(((await lines.next()) ?? '').trim())) : undefined,
      say: (t) => out.write(`${t}\n`),
      githubRepo: await originRepo(project.dir),
    });
    return 0;
  } finally {
    lines?.close();
  }
}
