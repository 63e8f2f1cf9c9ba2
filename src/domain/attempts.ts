/**
 * How many attempts of a task run side by side (#50), and the work legs they are. Attempt 1 is
 * the task's own leg (`t1`), attempt n ≥ 2 the leg `t1-a<n>` on the branch `<task branch>-a<n>`
 * (refs.ts candidateBranch). Asked for in one of three places, each bounded by `attempts.max`:
 * `attempts.parallel` in .github/crew.yml, the run's request (`/crew run --attempts N`, the label
 * `crew: best of N`), and the planner marking a task hard (that task gets the ceiling). Pure.
 */

/** The most parallel attempts of a task: each is a runner, and branch names hold one digit (`t1-a9`). */
export const MAX_PARALLEL_ATTEMPTS = 5;

/** The run's attempts, fixed when it starts: what each task gets, and the ceiling a hard task gets. */
export type RunAttempts = {
  parallel: number;
  max: number;
};

const LEG = /^(t[1-9][0-9]{0,2})(?:-a([2-9]))?$/;

/** A work leg's task and attempt number, or null when the id is no leg's. */
export function parseLeg(leg: string): { task: string; n: number } | null {
  const m = LEG.exec(leg);
  return m ? { task: m[1]!, n: m[2] ? Number(m[2]) : 1 } : null;
}

/** The legs of a task that runs `count` attempts: `t1`, `t1-a2`, … */
export function legsOf(task: string, count: number): string[] {
  return Array.from({ length: Math.max(1, count) }, (_, i) => legOf(task, i + 1));
}

/** Attempt n's leg of a task: `t1` for the first, `t1-a<n>` for the others. */
export function legOf(task: string, n: number): string {
  return n === 1 ? task : `${task}-a${n}`;
}

/**
 * How many attempts a task gets when it is claimed: the run's number, the ceiling for a task the
 * planner marked hard, one for a task that was judged already (a task the critic sends back goes on
 * from the attempt kept), and never more than `max_parallel` legs, which bind as ever.
 */
export function attemptsFor(run: RunAttempts | undefined, task: { hard?: boolean } | undefined, judgedBefore: boolean, maxParallel: number): number {
  if (!run || judgedBefore) return 1;
  const wanted = task?.hard ? run.max : run.parallel;
  return Math.max(1, Math.min(wanted, run.max, maxParallel, MAX_PARALLEL_ATTEMPTS));
}

/** The label that asks for a run with N attempts of each task: `crew: best of 3` (any case, spaces free). */
const BEST_OF = /^crew\s*:\s*best\s+of\s+([0-9]{1,2})$/i;

/** N from a `crew: best of N` label, or null when the label is not one. */
export function bestOfLabel(label: string): number | null {
  const m = BEST_OF.exec(label.trim());
  return m ? Number(m[1]) : null;
}

/** Whether a run's request for N attempts can be met; the words say what to ask instead. */
export function checkAttemptsRequest(n: number, max: number): { ok: true } | { ok: false; why: string } {
  if (!Number.isInteger(n) || n < 1) return { ok: false, why: `the number of attempts must be a whole number from 1 to ${max}` };
  if (n > max)
    return {
      ok: false,
      why: `${n} attempts is over the ceiling of ${max} (\`attempts.max\` in .github/crew.yml, at most ${MAX_PARALLEL_ATTEMPTS}); ask for ${max} or fewer, or raise \`attempts.max\``,
    };
  return { ok: true };
}

/**
 * The worker attempts a task really used: its own count, and for a task of parallel attempts (#50)
 * each leg's too. A leg's attempts start at the task's number when it was claimed (`attempts`, which
 * settling leaves as it was) and end at the candidate's `attempt` (its retries within the leg).
 */
export function attemptsUsed(task: { attempts: number; candidates?: { attempt: number }[] | undefined }): number {
  if (!task.candidates?.length) return task.attempts;
  const start = task.attempts;
  return start - 1 + task.candidates.reduce((n, c) => n + Math.max(1, c.attempt - start + 1), 0);
}
