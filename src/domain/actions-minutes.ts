import { z } from 'zod';
import { taskId, text, workLeg, type Stored } from './stored-shape';
/**
 * Billable GitHub Actions minutes. Pure.
 *
 * The rule, from GitHub's "Actions runner pricing" page
 * (https://docs.github.com/en/billing/reference/actions-runner-pricing): "GitHub rounds the
 * minutes and partial minutes each job uses up to the nearest whole minute." The rounding is
 * per job, not per workflow run, so nine 20-second jobs bill nine minutes.
 *
 * No runner multiplier is applied: every job of crew's shipped workflow runs on
 * `ubuntu-latest`, a standard Linux runner. GitHub's old multipliers (Linux 1, Windows 2,
 * macOS 10) now redirect to that page, which prices each runner per minute instead; a
 * standard Linux minute is the unit the plans' included minutes count. Public repositories
 * on standard runners pay nothing for these minutes ("About billing for GitHub Actions"), and
 * GitHub shows billable time only for private repositories ("Viewing job execution time").
 */

const isoTime = z.iso.datetime({ message: 'expected a time such as 2026-01-31T12:00:00.000Z' });

/** issue-<N>/run-<k>/jobs/job_<id>.json: one job of a run, as it recorded itself on crew/state (state/job-times.ts). */
export const JobTimeSchema = z.looseObject({
  /** `<workflow run id>-<attempt>-<job>[-<task>]`: unique per job GitHub starts. */
  id: text,
  /** The workflow job: route, work, advance, critic or merge. */
  step: text,
  /** For a work job, its task (or its leg, for a parallel attempt: `t1-a2`). */
  task: workLeg.optional(),
  /** The tasks the work job ran after its first one, in a chain. */
  chained: z.array(taskId).optional(),
  /** When crew's step started in that job (ISO, milliseconds). */
  startedAt: isoTime,
  /** The job's last write to crew/state so far (ISO, milliseconds): where crew last saw it running. */
  lastAt: isoTime,
});
export type JobTime = Stored<typeof JobTimeSchema>;

const MINUTE_MS = 60_000;

/** A job that ran for `ms` bills this many minutes: every started minute counts, and a job that ran at all bills one. */
export function billableMinutes(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) return 1;
  return Math.max(1, Math.ceil(ms / MINUTE_MS));
}

/** What one recorded job bills, from its start to the last time crew saw it. */
export function jobMinutes(job: Pick<JobTime, 'startedAt' | 'lastAt'>): number {
  return billableMinutes(Date.parse(job.lastAt) - Date.parse(job.startedAt));
}

/** The run's billable minutes: each job rounded up on its own, then added. */
export function runMinutes(jobs: ReadonlyArray<Pick<JobTime, 'startedAt' | 'lastAt'>>): number {
  return jobs.reduce((sum, j) => sum + jobMinutes(j), 0);
}

/** The minutes of a run's work jobs, per task (a task that needed more than one job adds them). */
export function minutesPerTask(jobs: ReadonlyArray<JobTime>): Map<string, number> {
  const out = new Map<string, number>();
  for (const j of jobs) {
    if (j.step !== 'work' || !j.task) continue;
    // A job that ran a chain bills once; its tasks share those minutes evenly.
    // A parallel attempt's leg (`t1-a2`, #50) bills to its task.
    const tasks = [j.task.replace(/-a[2-9]$/, ''), ...(j.chained ?? [])];
    for (const t of tasks) out.set(t, (out.get(t) ?? 0) + jobMinutes(j) / tasks.length);
  }
  return out;
}
