import { readWorkflowDoc } from './workflow-doc';

/** GitHub's limit for a job that sets no `timeout-minutes` (docs: "Workflow syntax", jobs.<id>.timeout-minutes). */
export const GITHUB_DEFAULT_JOB_MINUTES = 360;

/** The shipped workflow's `work` job limit: what crew assumes when it cannot read its own. */
export const SHIPPED_WORK_JOB_MINUTES = 60;

/** A job's time limit as its workflow file states it. */
export type JobLimitRead = { minutes: number } | { unreadable: string };

/**
 * `jobs.<job>.timeout-minutes` of a workflow file: GitHub's default when the job sets none;
 * unreadable when the file does not parse, has no such job, or the limit is an expression
 * only GitHub can evaluate.
 */
export function readJobTimeout(workflowText: string | undefined, job: string, file: string): JobLimitRead {
  const read = readWorkflowDoc(workflowText, file);
  if ('unreadable' in read) return read;
  const spec = (read.doc as { jobs?: Record<string, Record<string, unknown>> } | null)?.jobs?.[job];
  if (!spec || typeof spec !== 'object') return { unreadable: `${file} has no job '${job}'` };
  const value = spec['timeout-minutes'];
  if (value === undefined) return { minutes: GITHUB_DEFAULT_JOB_MINUTES };
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return { minutes: value };
  return { unreadable: `jobs.${job}.timeout-minutes in ${file} is ${JSON.stringify(value)}, which only GitHub can evaluate` };
}

/** crew's reusable workflow, which the short form's job calls (`uses: <owner>/crew/.github/workflows/crew-jobs.yml@<tag>`). */
export const CREW_JOBS_FILE = '.github/workflows/crew-jobs.yml';

/**
 * Whether a workflow file is the short form: a job of it calls crew's reusable workflow. Then crew's
 * jobs, and their `timeout-minutes`, are in crew-jobs.yml at the action's own commit, not in this file.
 */
export function callsCrewJobs(workflowText: string | undefined): boolean {
  const read = readWorkflowDoc(workflowText ?? '', 'the workflow');
  if ('unreadable' in read) return false;
  const doc = read.doc;
  const jobs = (doc as { jobs?: Record<string, { uses?: unknown } | null> } | null)?.jobs;
  return Object.values(jobs ?? {}).some((j) => typeof j?.uses === 'string' && /(^\.\/|\/)\.github\/workflows\/crew-jobs\.ya?ml(@|$)/.test(j.uses));
}

/**
 * How long before the job's limit a task stops to save its work: a tenth of the limit, at
 * least 3 minutes (a commit, a push, a state write that may retry, a dispatch).
 */
export function saveMarginMinutes(limitMinutes: number): number {
  return Math.max(3, limitMinutes / 10);
}
