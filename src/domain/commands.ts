/**
 * The `/crew …` commands: one registry entry per command, in the order crew offers them. Each
 * says how it is spelled and parsed, what `/crew help` and the README say about it, when the plan
 * comment offers it, and how a person gives it in local mode. Parsing, `/crew help`, the plan
 * comment's "Commands now", local mode's choices and the README's table all read this table;
 * the handlers live in `steps/commands/` (route.ts looks them up by kind; the compiler holds
 * every kind to a handler). Pure.
 */

import { withoutQuotes } from '../text/markdown';
import type { Phase, RunRecord } from './run-state';
import { budgetStopAccepts } from './budgets';

export type Command =
  | { kind: 'run'; attempts?: number }
  | { kind: 'plan'; attempts?: number }
  | { kind: 'fix'; feedback: string }
  | { kind: 'approve' }
  | { kind: 'revise'; feedback: string }
  | { kind: 'answer'; text: string }
  | { kind: 'accept' }
  | { kind: 'retry'; task?: string }
  | { kind: 'abort' }
  | { kind: 'resume' }
  | { kind: 'continue'; amountUsd?: number }
  | { kind: 'status' }
  | { kind: 'retro' }
  | { kind: 'remember'; n: number }
  | { kind: 'help' }
  | { kind: 'doctor' }
  | { kind: 'unknown'; word: string };

export type CommandKind = Command['kind'];
export type KnownKind = Exclude<CommandKind, 'unknown'>;

/** How a person gives a command in a local run: typed at crew's prompt, as a `crew` command line, or not at all. */
export type LocalSpelling = { at: 'prompt' } | { at: 'cli'; line: (run: number) => string } | { at: 'none'; why: string };

export interface CommandSpec<K extends KnownKind = KnownKind> {
  kind: K;
  /** Where the plan comment and local mode's prompt put it among the commands offered at once. */
  offerOrder: number;
  /** As in `/crew help` and the README, e.g. `/crew retry [task]`. */
  usage: string;
  /** One line for `/crew help` and the README. */
  help: string;
  /** The command from the words after its name (`args`) and the rest of the comment after it (`tail`). */
  parse(args: string[], tail: string): Extract<Command, { kind: K }> | { kind: 'unknown'; word: string };
  /** The usage the plan comment offers while the run is in this state, or null. */
  offered(run: Pick<RunRecord, 'phase' | 'waiting' | 'failure' | 'retroAtBudget'>): string | null;
  local: LocalSpelling;
}

const inPhase =
  (...phases: Phase[]) =>
  (run: Pick<RunRecord, 'phase'>) =>
    phases.includes(run.phase);
const RUNNING: Phase[] = ['PLANNING', 'EXECUTING', 'INTEGRATING', 'REVIEWING'];
const ENDED: Phase[] = ['COMPLETED', 'ABORTED'];
const prompt: LocalSpelling = { at: 'prompt' };
const plain =
  <K extends 'approve' | 'accept' | 'abort' | 'resume' | 'status' | 'retro' | 'help' | 'doctor'>(kind: K) =>
  () =>
    ({ kind }) as Extract<Command, { kind: K }>;

/**
 * `/crew run --attempts N` (also `--attempts=N`): the run's parallel attempts of each task (#50). A
 * flag that is not a whole number reads as NaN, which starting the run refuses with its words.
 */
const withAttempts =
  <K extends 'run' | 'plan'>(kind: K) =>
  (args: string[]): Extract<Command, { kind: K }> | { kind: 'unknown'; word: string } => {
    const i = args.findIndex((a) => a === '--attempts' || a.startsWith('--attempts='));
    if (i < 0) return { kind } as Extract<Command, { kind: K }>;
    const value = args[i]!.includes('=') ? args[i]!.slice('--attempts='.length) : args[i + 1];
    return { kind, attempts: value && /^[0-9]{1,2}$/.test(value) ? Number(value) : Number.NaN } as Extract<Command, { kind: K }>;
  };

/** Every command, in the order `/crew help` and the README list them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    kind: 'run',
    offerOrder: 7,
    usage: '/crew run [--attempts N]',
    help: 'plan the issue, run the workers, integrate and open a pull request; `--attempts N` runs N attempts of each task side by side and keeps the best by tests',
    parse: withAttempts('run'),
    offered: (r) => (inPhase('FAILED', ...ENDED)(r) ? '/crew run' : null),
    local: { at: 'cli', line: () => 'crew run "…"' },
  },
  {
    kind: 'plan',
    offerOrder: 8,
    usage: '/crew plan [--attempts N]',
    help: 'plan, then wait for `/crew approve` before running anything',
    parse: withAttempts('plan'),
    offered: (r) => (inPhase(...ENDED)(r) ? '/crew plan' : null),
    local: { at: 'cli', line: () => 'crew run --plan "…"' },
  },
  {
    kind: 'fix',
    offerOrder: 14,
    usage: '/crew fix <feedback>',
    help: "on crew's own pull request: a follow-up run on the same branch for your feedback and the unresolved review comments (`/crew <feedback>` there does the same)",
    parse: (_args, tail) => ({ kind: 'fix', feedback: tail }),
    offered: () => null,
    local: { at: 'none', why: "a follow-up works on crew's pull request, which only crew on GitHub opens" },
  },
  {
    kind: 'approve',
    offerOrder: 1,
    usage: '/crew approve',
    help: 'start a plan that waits for approval (only an approval written after the plan counts)',
    parse: plain('approve'),
    offered: (r) => (r.phase === 'AWAITING_APPROVAL' ? '/crew approve' : null),
    local: prompt,
  },
  {
    kind: 'revise',
    offerOrder: 2,
    usage: '/crew revise <feedback>',
    help: 'plan again, taking your feedback into account',
    parse: (_args, tail) => ({ kind: 'revise', feedback: tail }),
    offered: (r) =>
      r.phase === 'AWAITING_APPROVAL' || (r.phase === 'ESCALATING' && r.waiting?.kind === 'decision' && r.waiting.topic === 'plan_review')
        ? '/crew revise <feedback>'
        : null,
    local: prompt,
  },
  {
    kind: 'answer',
    offerOrder: 3,
    usage: '/crew answer <text>',
    help: "answer crew's questions; while crew waits, a plain reply works too",
    parse: (_args, tail) => ({ kind: 'answer', text: tail }),
    offered: (r) => (r.phase === 'ESCALATING' && (r.waiting?.kind === 'answer' || r.waiting?.kind === 'decision') ? '/crew answer <text>' : null),
    local: prompt,
  },
  {
    kind: 'retry',
    offerOrder: 5,
    usage: '/crew retry [task]',
    help: 'run failed tasks (or one) again, retry a task crew asked you about, or give the critic one more round',
    parse: (args) => (args[0] ? { kind: 'retry', task: args[0] } : { kind: 'retry' }),
    offered: (r) =>
      r.phase === 'FAILED'
        ? '/crew retry [task]'
        : r.phase === 'ESCALATING' && (r.waiting?.kind === 'decision' || r.waiting?.kind === 'verdict' || r.waiting?.kind === 'conflict')
          ? '/crew retry'
          : null,
    local: prompt,
  },
  {
    kind: 'accept',
    offerOrder: 6,
    usage: '/crew accept',
    help: "take an escalated task's work as it is and go on; after the critic's FAIL, open the PR with the failing criteria at its top; at a budget's end, open the PR with the work that exists, unjudged (crew never merges either)",
    parse: plain('accept'),
    offered: (r) =>
      r.phase === 'ESCALATING' &&
      (r.waiting?.kind === 'decision' || r.waiting?.kind === 'verdict' || (r.waiting?.kind === 'budget' && budgetStopAccepts(r.waiting)))
        ? '/crew accept'
        : null,
    local: prompt,
  },
  {
    kind: 'abort',
    offerOrder: 11,
    usage: '/crew abort',
    help: 'stop the run: running workers stop at the end of a turn, within half a minute, and keep their work',
    parse: plain('abort'),
    offered: (r) => (inPhase(...RUNNING, 'AWAITING_APPROVAL', 'ESCALATING', 'INTERRUPTED')(r) ? '/crew abort' : null),
    local: prompt,
  },
  {
    kind: 'resume',
    offerOrder: 4,
    usage: '/crew resume',
    help: 'continue a run that was interrupted (a cancelled workflow, a lost runner) or that crew itself failed in after the work (integrating, judging, opening the PR): it carries on from there',
    parse: plain('resume'),
    offered: (r) => (r.phase === 'INTERRUPTED' || (r.phase === 'FAILED' && r.failure?.resumeFrom) ? '/crew resume' : null),
    local: { at: 'cli', line: (run) => `crew run --resume ${run}` },
  },
  {
    kind: 'continue',
    offerOrder: 0,
    usage: '/crew continue [$N]',
    help: "after a run stopped at a budget: go on from where it stopped (the work on its branches, planning, re-planning, merging, the critic, or a retrospective skipped after the run ended), with another `budgets.run` to spend from here (or `$N` more); after `budgets.day` or `budgets.month`, once the repository's budget has room",
    parse: (args) => {
      if (!args[0]) return { kind: 'continue' };
      const m = /^\$?(\d+(?:\.\d{1,2})?)$/.exec(args[0]);
      const amountUsd = m ? Number(m[1]) : NaN;
      return amountUsd > 0 ? { kind: 'continue', amountUsd } : { kind: 'unknown', word: `continue ${args[0]}` };
    },
    offered: (r) =>
      (r.phase === 'ESCALATING' && r.waiting?.kind === 'budget') || (r.retroAtBudget && inPhase('FAILED', ...ENDED)(r)) ? '/crew continue' : null,
    local: prompt,
  },
  {
    kind: 'status',
    offerOrder: 12,
    usage: '/crew status',
    help: 'refresh the plan comment; with a repository budget set, show the spend today and this month',
    parse: plain('status'),
    offered: (r) => (inPhase(...RUNNING, 'FAILED', 'INTERRUPTED', ...ENDED)(r) ? '/crew status' : null),
    local: { at: 'cli', line: (run) => `crew status ${run}` },
  },
  {
    kind: 'retro',
    offerOrder: 9,
    usage: '/crew retro',
    help: 'post a full retrospective of the newest finished run',
    parse: plain('retro'),
    offered: (r) => (inPhase(...ENDED)(r) ? '/crew retro' : null),
    local: { at: 'none', why: 'a local run writes its retrospective when it ends' },
  },
  {
    kind: 'remember',
    offerOrder: 10,
    usage: '/crew remember <n>',
    help: 'open a pull request adding memory candidate n of the retrospective to `.github/crew/knowledge.jsonl`',
    parse: (args) => {
      const n = Number(args[0]);
      return Number.isInteger(n) && n > 0 ? { kind: 'remember', n } : { kind: 'unknown', word: `remember ${args[0] ?? ''}`.trim() };
    },
    offered: () => null,
    local: { at: 'none', why: 'remembering opens a pull request, which only crew on GitHub does' },
  },
  {
    kind: 'help',
    offerOrder: 13,
    usage: '/crew help',
    help: 'list the commands',
    parse: plain('help'),
    offered: (r) => (inPhase(...RUNNING, 'FAILED', ...ENDED)(r) ? '/crew help' : null),
    local: { at: 'cli', line: () => 'crew --help' },
  },
  {
    kind: 'doctor',
    offerOrder: 15,
    usage: '/crew doctor',
    help: "check the repository's setup for crew (Actions, rulesets, the workflow, the secret, .github/crew.yml) and say how to fix each problem",
    parse: plain('doctor'),
    // Never offered in a plan comment: a run that got that far is set up; `/crew help` lists it.
    offered: () => null,
    local: { at: 'cli', line: () => 'crew doctor' },
  },
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
  if (word === '') return { kind: 'help' };
  const spec = COMMANDS.find((c) => c.kind === word.toLowerCase());
  return spec ? spec.parse(args, tail) : { kind: 'unknown', word };
}

/**
 * What follows the command word, quoted lines left out (`/crew run keep the old API` → `keep the old
 * API`): on a pull request a person opened, part of the request, since the PR has no issue text of its own.
 */
export function commandText(raw: string): string {
  if (!PREFIX.test(raw)) return '';
  const rest = withoutQuotes(raw).slice('/crew'.length).trim();
  const word = rest.split(/\s+/, 1)[0] ?? '';
  return rest.slice(word.length).trim();
}

const byOffer = (specs: readonly CommandSpec[]) => [...specs].sort((a, b) => a.offerOrder - b.offerOrder);

/** The commands that make sense while the run is in this state, as the plan comment offers them. */
export function commandsNow(run: Pick<RunRecord, 'phase' | 'waiting' | 'failure'>): string[] {
  return byOffer(COMMANDS)
    .map((c) => c.offered(run))
    .filter((u): u is string => u !== null);
}

/** What a person can type at local mode's prompt now: the offered commands given there, without `/crew `. */
export function promptChoices(run: Pick<RunRecord, 'phase' | 'waiting' | 'failure'>): string[] {
  return byOffer(COMMANDS.filter((c) => c.local.at === 'prompt'))
    .map((c) => c.offered(run))
    .filter((u): u is string => u !== null)
    .map((u) => u.replace(/^\/crew /, ''));
}
