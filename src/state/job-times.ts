import type { JobTime } from '../domain/actions-minutes';
import type { StateStore, StateTx } from '../ports';
import { paths } from './run-files';
import { storeAround } from './store-around';

/** The job, as main.ts knows it: GitHub's ids for it, and when crew's step began (epoch ms). */
export interface BilledJob {
  id: string;
  step: string;
  task?: string;
  /** The tasks a work job ran after its first, in a chain (#17 §4): the work step adds each as it starts it. */
  chained?: string[];
  startedAt: number;
}

/** A job id that is safe in a file name: GitHub's run id, attempt and job id are; a task id is too. */
export function jobId(parts: { runId: string; attempt?: string; job: string; task?: string }): string {
  return [parts.runId, parts.attempt || '1', parts.job, parts.task]
    .filter(Boolean)
    .join('-')
    .replace(/[^A-Za-z0-9_-]/g, '_');
}

const RUN_FOLDER = /^issue-(\d+)\/run-(\d+)\//;

/**
 * The StateStore main.ts uses on GitHub, recording when each job started and last wrote, for the
 * billable minutes (domain/actions-minutes.ts). It costs no write of its own: every write this job
 * makes to a run's folder also writes `jobs/job_<id>.json` there, in the same commit, with the
 * time of that write. So a job's record ends at its last state write, which for every step is
 * close to its end (only the plan comment's edit and a dispatch come after). A mutation that
 * changes nothing still commits nothing. Parallel jobs each write their own file, so the
 * re-applied mutation after a lost compare-and-swap never merges anything.
 */
export function recordingJobTimes(inner: StateStore, job: BilledJob, now: () => Date): StateStore {
  const started = new Date(job.startedAt).toISOString();
  return storeAround(inner, (prefix, message, mutate, fresh) =>
    inner.update(
      prefix,
      message,
      (tx) => {
        const touched = new Set<string>();
        const note = (path: string, changes: boolean) => {
          const m = RUN_FOLDER.exec(path);
          if (m && changes) touched.add(`${m[1]}/${m[2]}`);
        };
        const watched: StateTx = {
          read: (p) => tx.read(p),
          write: (p, content) => {
            note(p, tx.read(p) !== content);
            tx.write(p, content);
          },
          remove: (p) => {
            note(p, tx.read(p) !== undefined);
            tx.remove(p);
          },
          list: (p) => tx.list(p),
        };
        const value = mutate(watched);
        for (const key of touched) {
          const [issue, run] = key.split('/').map(Number) as [number, number];
          // A pruned folder (only its digest is left) bills no job: nothing runs there any more.
          if (tx.read(paths.digest(issue, run)) !== undefined) continue;
          const record: JobTime = {
            id: job.id,
            step: job.step,
            ...(job.task ? { task: job.task } : {}),
            ...(job.chained?.length ? { chained: [...job.chained] } : {}),
            startedAt: started,
            lastAt: now().toISOString(),
          };
          tx.write(paths.job(issue, run, job.id), `${JSON.stringify(record, null, 2)}\n`);
        }
        return value;
      },
      fresh,
    ),
  );
}
