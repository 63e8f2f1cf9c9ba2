/** The `/crew …` commands, parsed from the first line of a comment. Pure. */

import { withoutQuotes } from '../text/markdown';

export type Command =
  | { kind: 'run' }
  | { kind: 'plan' }
  | { kind: 'approve' }
  | { kind: 'revise'; feedback: string }
  | { kind: 'answer'; text: string }
  | { kind: 'accept' }
  | { kind: 'retry'; task?: string }
  | { kind: 'abort' }
  | { kind: 'resume' }
  | { kind: 'status' }
  | { kind: 'retro' }
  | { kind: 'remember'; n: number }
  | { kind: 'help' }
  | { kind: 'unknown'; word: string };

export type CommandKind = Command['kind'];

export const COMMAND_HELP: Array<{ usage: string; what: string; kind: Exclude<CommandKind, 'unknown'> }> = [
  { kind: 'run', usage: '/crew run', what: 'plan the issue, run the workers and open a pull request' },
  { kind: 'plan', usage: '/crew plan', what: 'plan only, then wait for `/crew approve`' },
  { kind: 'approve', usage: '/crew approve', what: 'start a plan that is waiting for approval' },
  { kind: 'revise', usage: '/crew revise <feedback>', what: 'plan again with your feedback' },
  { kind: 'answer', usage: '/crew answer <text>', what: 'answer a question crew asked' },
  { kind: 'accept', usage: '/crew accept', what: 'take the result although the critic failed it (never auto-merged)' },
  { kind: 'retry', usage: '/crew retry [task]', what: 'run failed tasks again' },
  { kind: 'abort', usage: '/crew abort', what: 'stop the run, keeping work done so far' },
  { kind: 'resume', usage: '/crew resume', what: 'continue an interrupted run' },
  { kind: 'status', usage: '/crew status', what: 'refresh the plan comment' },
  { kind: 'retro', usage: '/crew retro', what: 'post a full retrospective' },
  { kind: 'remember', usage: '/crew remember <n>', what: 'add memory candidate n to the knowledge base' },
  { kind: 'help', usage: '/crew help', what: 'show this list' },
];

const PREFIX = /^\/crew(?=\s|$)/;

/**
 * Undefined when the comment is not addressed to crew at all: its first line must be the
 * command. Quoted lines (`>`) are someone else's words, so they are never a command's
 * argument: they are left out before the rest is read.
 */
export function parseCommand(raw: string): Command | undefined {
  if (!PREFIX.test(raw)) return undefined;
  const body = withoutQuotes(raw);
  const firstLine = body.split(/\r?\n/, 1)[0]!;
  const rest = body.slice('/crew'.length).trim();
  const [word = '', ...args] = firstLine.slice('/crew'.length).trim().split(/\s+/);
  const tail = rest.slice(word.length).trim();
  switch (word.toLowerCase()) {
    case '':
    case 'help':
      return { kind: 'help' };
    case 'run':
      return { kind: 'run' };
    case 'plan':
      return { kind: 'plan' };
    case 'approve':
      return { kind: 'approve' };
    case 'revise':
      return { kind: 'revise', feedback: tail };
    case 'answer':
      return { kind: 'answer', text: tail };
    case 'accept':
      return { kind: 'accept' };
    case 'retry':
      return args[0] ? { kind: 'retry', task: args[0] } : { kind: 'retry' };
    case 'abort':
      return { kind: 'abort' };
    case 'resume':
      return { kind: 'resume' };
    case 'status':
      return { kind: 'status' };
    case 'retro':
      return { kind: 'retro' };
    case 'remember': {
      const n = Number(args[0]);
      return Number.isInteger(n) && n > 0 ? { kind: 'remember', n } : { kind: 'unknown', word: `remember ${args[0] ?? ''}`.trim() };
    }
    default:
      return { kind: 'unknown', word };
  }
}
