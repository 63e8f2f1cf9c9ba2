import type { Command, CommandKind } from '../../domain/commands';
import type { CommentEvent } from '../../event';
import { sanitize } from '../../text/sanitize';
import type { StepContext } from '../context';
import { abort } from './abort';
import { answer } from './answer';
import { doctor } from './doctor';
import { approve, revise } from './approval';
import { REPLY_CHARS } from './common';
import { accept, retry } from './decisions';
import { help, rememberCandidate, retro, status } from './info';
import { resume } from './resume';
import { continueRun } from './continue';
import { commentRequest, startRun } from './start';

type Handler<K extends CommandKind> = (ctx: StepContext, ev: CommentEvent, command: Extract<Command, { kind: K }>) => Promise<void>;

/**
 * Each command's handler, by kind. The type makes every kind in the registry
 * (domain/commands.ts) have one, so a command cannot be parsed and then go unanswered.
 */
export const HANDLERS: { [K in CommandKind]: Handler<K> } = {
  run: async (ctx, ev, c) => void (await startRun(ctx, { ...commentRequest(ctx, ev), ...(c.attempts !== undefined ? { attempts: c.attempts } : {}) }, 'run')),
  plan: async (ctx, ev, c) => void (await startRun(ctx, { ...commentRequest(ctx, ev), ...(c.attempts !== undefined ? { attempts: c.attempts } : {}) }, 'plan')),
  // On crew's own pull request route.ts starts the follow-up; anywhere else there is no branch of crew's to fix.
  fix: async (ctx, ev) => {
    await ctx.forge.postComment(
      ev.issue.number,
      `\`/crew fix\` works on a pull request crew opened: comment it there (or submit a review starting with \`/crew\`), and crew follows up on the same branch. On an issue, ${ctx.surface.command('run')} starts a new run.`,
    );
  },
  approve: (ctx, ev) => approve(ctx, ev),
  revise: (ctx, ev, c) => revise(ctx, ev, sanitize(c.feedback, REPLY_CHARS)),
  answer: async (ctx, ev, c) => {
    const text = sanitize(c.text, REPLY_CHARS);
    if (!text) {
      await ctx.forge.postComment(ev.issue.number, `Write the answer after the command: ${ctx.surface.command('answer', '<text>')}.`);
      return;
    }
    return answer(ctx, ev, text, { quiet: false });
  },
  accept: (ctx, ev) => accept(ctx, ev),
  retry: (ctx, ev, c) => retry(ctx, ev, c.task),
  abort: (ctx, ev) => abort(ctx, ev),
  resume: (ctx, ev) => resume(ctx, ev),
  continue: (ctx, ev, c) => continueRun(ctx, ev, c.amountUsd),
  status: (ctx, ev) => status(ctx, ev),
  retro: (ctx, ev) => retro(ctx, ev),
  remember: (ctx, ev, c) => rememberCandidate(ctx, ev, c.n),
  help: (ctx, ev) => help(ctx, ev),
  doctor: (ctx, ev) => doctor(ctx, ev),
  unknown: (ctx, ev, c) => help(ctx, ev, c.word),
};

/** Runs the handler of a parsed command. */
export function handle(ctx: StepContext, ev: CommentEvent, command: Command): Promise<void> {
  return (HANDLERS[command.kind] as Handler<CommandKind>)(ctx, ev, command);
}
