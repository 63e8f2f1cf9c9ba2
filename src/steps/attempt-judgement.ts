import type { LoopStop } from '../agents/tool-loop';
import type { Config } from '../config/schema';
import { noRoomForAnotherAttempt, type Budgets } from '../domain/budgets';
import { checkResult, type Observed } from '../domain/result';
import { addSpent, addUsage, ZERO_USAGE, type RunView, type Spent, type Usage } from '../domain/run-state';
import { ownBudgetStop, type BudgetStop } from './budget-stop';
import type { StepContext } from './context';
import type { AttemptOutcome } from './task-results';
import type { TakenTask } from './work-claim';
import type { Toolbox } from './work-toolbox';
import type { PastAttempt } from '../domain/attempt-memory';
import type { runWorker } from '../agents/worker';

/** Where a leg's attempts stand: their number, the first of this allowance, and what earlier ones left for memory. */
export interface AttemptState {
  attempt: number;
  firstAttempt: number;
  history: PastAttempt[];
  carried: { attempt: number; firstAttempt: number } | undefined;
}

export type WorkerRun = Awaited<ReturnType<typeof runWorker>>;
/** One attempt's worker run (none when it stopped early), its time, and what was undone; or that a new job goes on with it. */
export type Ran =
  | { handedOver: true }
  | {
      handedOver: false;
      workerRun: WorkerRun | undefined;
      stopEarly: Observed['ending'] | null;
      elapsedMs: number;
      reverted: string[];
      changedFiles: string[];
      imagesNotLoaded: string[];
      /** A parallel attempt the job's limit or a cancellation ended (#50): what it did is its result. */
      cut: boolean;
    };

const ENDINGS = {
  final: 'reported',
  max_turns: 'max_turns',
  no_final: 'no_report',
  budget: 'budget',
  wall_clock: 'wall_clock',
  shutdown: 'shutdown',
  error: 'error',
  loop: 'loop',
} as const satisfies Record<Exclude<LoopStop, 'interrupted'>, Observed['ending']>;

/** crew's judgement of one attempt: its result by the rules, and whether another attempt follows. */
export function judgeAttempt(
  ctx: StepContext,
  config: Config,
  t: TakenTask,
  state: AttemptState,
  ran: Extract<Ran, { handedOver: false }>,
  tools: Toolbox,
  spent: { taskSpent: Spent; runSpent: Usage; budgets: Budgets; view: RunView; runStopped?: BudgetStop | undefined },
): { outcome: AttemptOutcome; seen: Observed; heldAt: BudgetStop | undefined } {
  const { workerRun } = ran;
  const ending: Observed['ending'] =
    ran.stopEarly ??
    (ran.cut ? 'wall_clock' : workerRun!.reported && workerRun!.stop === 'final' ? 'reported' : ENDINGS[workerRun!.stop as Exclude<LoopStop, 'interrupted'>]);
  const seen: Observed = {
    persona: t.task.persona,
    ending,
    changedFiles: ran.changedFiles,
    turns: workerRun?.turns ?? 0,
    usage: workerRun?.usage ?? ZERO_USAGE,
    toolCalls: workerRun?.toolCalls ?? {},
    elapsedMs: ran.elapsedMs,
    ...(ran.reverted.length ? { reverted: ran.reverted } : {}),
    ...(workerRun?.error ? { error: workerRun.error } : {}),
    ...(workerRun?.limit ? { limit: workerRun.limit } : {}),
    // The run stopped at a budget while this worker ran, and it stopped at the end of its turn (#52).
    ...(ending === 'shutdown' && spent.runStopped ? { stoppedBy: 'budget' as const } : {}),
  };
  let checked = checkResult(workerRun?.reported, seen);
  // Stopped there, a task run once is held, not settled.
  const runStopped = seen.stoppedBy && spent.runStopped;
  if (tools.setupFailure) checked = { ...checked, status: 'failure', retry: false, reason: tools.setupFailure, summary: tools.setupFailure };
  // Each job gets 1 + max_retries attempts; a retry a person or the advisor asked for starts a fresh allowance.
  // An impediment the worker reported goes to the leader at once: retrying blind would only repeat it.
  const impeded = checked.feedback?.type === 'difficulty';
  // A success the rules sent back (a report under 20 lines: RED) is retried like any other, while attempts are left.
  // A retry needs room in the task's and the run's budgets after this attempt's spending.
  const noRoom = checked.retry ? noRoomForAnotherAttempt(spent.budgets, addSpent(spent.taskSpent, seen.usage, 0), addUsage(spent.runSpent, seen.usage)) : null;
  // A budget is what stops a task that would go on: it waits with its work, and the run asks (#52).
  // A parallel attempt is not held on its own: its work so far is its candidate (work.ts, endLegAtBudget; the task may wait as a whole).
  const heldAt =
    t.of > 1
      ? undefined
      : (runStopped ??
        (noRoom && !impeded
          ? ownBudgetStop(config, spent.view, addUsage(spent.runSpent, seen.usage), { id: t.rec.id, spent: addSpent(spent.taskSpent, seen.usage, 0) })
          : undefined));
  if (noRoom && !heldAt) checked = { ...checked, reason: `${checked.reason ?? checked.summary}; ${noRoom}` };
  const final = !heldAt && (state.attempt >= state.firstAttempt + config.max_retries || !checked.retry || impeded || noRoom !== null);
  if (ran.cut) ctx.log.info(`${t.leg}: the job's limit or a cancellation ended this parallel attempt; its work so far is its result`);
  const outcome: AttemptOutcome = {
    attempt: state.attempt,
    checked,
    seen,
    final,
    sandboxWarning: tools.warning,
    mcpNotes: [...tools.mcp.notes],
    imagesNotLoaded: ran.imagesNotLoaded,
    refused: tools.refused(),
    ...(ran.cut ? { cut: true } : {}),
  };
  return { outcome, seen, heldAt };
}
