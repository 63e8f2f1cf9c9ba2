import { jobTimeScale } from '../clock';
import { saveMarginMinutes } from '../config/job-limit';
import { CrewError, type StepContext } from './context';

/** When a work job must stop working to save in time, its limit, and when it started. */
export type JobStop = { at: number; minutes: number; startedAt: number };

/**
 * When this job must stop working to save in time: its `timeout-minutes` less a margin, from
 * when the job started (scaled in tests by CREW_JOB_TIME_SCALE); undefined without a limit
 * (local mode). Says so when the task may outlast the job, or the limit could not be read.
 */
export async function jobStopTime(ctx: StepContext, taskMinutes: number, taskId: string): Promise<JobStop | undefined> {
  const limit = await ctx.jobLimit?.();
  if (!limit) return undefined;
  const usable = limit.minutes - saveMarginMinutes(limit.minutes);
  if (limit.unreadable)
    ctx.log.warn(`crew could not read this job's time limit (${limit.unreadable}), so it assumes the shipped workflow's ${limit.minutes} minutes`);
  if (taskMinutes > usable) {
    ctx.log.warn(
      `task_timeout_minutes (${taskMinutes}) is longer than this work job can run (timeout-minutes: ${limit.minutes}): ${taskId} saves its work ${saveMarginMinutes(limit.minutes)} minutes before the job's limit and goes on in a new job. ${limit.calledWorkflow ? "To keep a task in one job, use the full workflow (crew's docs/workflow.md) and raise its work job's timeout-minutes." : "Raise the work job's timeout-minutes in your workflow to keep a task in one job."}`,
    );
  }
  return { at: limit.startedAt + usable * 60_000 * jobTimeScale(), minutes: limit.minutes, startedAt: limit.startedAt };
}

export function noTimeToWork(taskId: string, minutes: number): CrewError {
  return new CrewError(
    `task ${taskId}`,
    `the work job's time limit (timeout-minutes: ${minutes}) left ${taskId} no time to work: crew stops ${saveMarginMinutes(minutes)} minutes before the limit to save the work, and setup and the first model turn took the rest.`,
    "Raise `timeout-minutes` of the work job in your workflow (the README's has 60).",
  );
}
