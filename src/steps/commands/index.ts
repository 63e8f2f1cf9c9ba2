import type { Command, CommandKind } from '../../domain/commands';
import type { CommentEvent } from '../../event';
import { sanitize } from '../../text/sanitize';
import type { StepContext } from '../context';
import { ownCode } from '../own-code';
import { REPLY_CHARS } from './common';
import { commentRequest, startRun } from './start';

// Each handler's module, imported when its command comes (see HANDLERS).
const approval = () => ownCode('the approve and revise commands', import('./approval'));
const answer = () => ownCode('the answer command', import('./answer'));
const decisions = () => ownCode('the accept and retry commands', import('./decisions'));
const abort = () => ownCode('the abort command', import('./abort'));
const resume = () => ownCode('the resume command', import('./resume'));
const cont = () => ownCode('the continue command', import('./continue'));
const info = () => ownCode('the status, retro, remember and help commands', import('./info'));
const doctor = () => ownCode('the doctor command', import('./doctor'));

type Handler<K extends CommandKind> = (ctx: StepContext, ev: CommentEvent, command: Extract<Command, { kind: K }>) => Promise<void>;

/**
 * Each command's handler, by kind. The type makes every kind in the registry
 * (domain/commands.ts) have one, so a command cannot be parsed and then go unanswered.
 * A route job answers one command, so each handler's module is imported when its command comes
 * (ncc writes each to a chunk): `/crew run` does not load what `/crew accept` reaches (the merge,
 * integration, the retrospective), nor a refusal any of it. `run` and `plan`, the common start, stay.
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
  approve: async (ctx, ev) => (await approval()).approve(ctx, ev),
  revise: async (ctx, ev, c) => (await approval()).revise(ctx, ev, sanitize(c.feedback, REPLY_CHARS)),
  answer: async (ctx, ev, c) => {
    const text = sanitize(c.text, REPLY_CHARS);
    if (!text) {
      await ctx.forge.postComment(ev.issue.number, `Write the answer after the command: ${ctx.surface.command('answer', '<text>')}.`);
      return;
    }
    return (await answer()).answer(ctx, ev, text, { quiet: false });
  },
  accept: async (ctx, ev) => (await decisions()).accept(ctx, ev),
  retry: async (ctx, ev, c) => (await decisions()).retry(ctx, ev, c.task),
  abort: async (ctx, ev) => (await abort()).abort(ctx, ev),
  resume: async (ctx, ev) => (await resume()).resume(ctx, ev),
  continue: async (ctx, ev, c) => (await cont()).continueRun(ctx, ev, c.amountUsd),
  status: async (ctx, ev) => (await info()).status(ctx, ev),
  retro: async (ctx, ev) => (await info()).retro(ctx, ev),
  remember: async (ctx, ev, c) => (await info()).rememberCandidate(ctx, ev, c.n),
  help: async (ctx, ev) => (await info()).help(ctx, ev),
  doctor: async (ctx, ev) => (await doctor()).doctor(ctx, ev),
  unknown: async (ctx, ev, c) => (await info()).help(ctx, ev, c.word),
};

/** Runs the handler of a parsed command. */
export function handle(ctx: StepContext, ev: CommentEvent, command: Command): Promise<void> {
  return (HANDLERS[command.kind] as Handler<CommandKind>)(ctx, ev, command);
}
