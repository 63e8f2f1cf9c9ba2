import { readCiWorkflows, type CiWorkflowsRead } from './config/ci-workflows';
import { callsCrewJobs, CREW_JOBS_FILE, GITHUB_DEFAULT_JOB_MINUTES, readJobTimeout, SHIPPED_WORK_JOB_MINUTES } from './config/job-limit';
import { readOwnFile } from './bundle';
import type { Remote, WorkingCopy } from './ports';

/** A job's time limit as StepContext.jobLimit gives it. */
type JobLimit = { minutes: number; startedAt: number; unreadable?: string; calledWorkflow?: boolean };

/**
 * What an Action job reads from the default branch, never from a branch under work: any file
 * (configuration, templates, knowledge), and crew's own workflow file (crew's jobs run from there),
 * with the job's time limit and the CI workflows fix_ci is named for read from it.
 */
export function defaultBranchFiles(o: {
  defaultBranch: () => Promise<string>;
  /** Whether the job has a checkout of the repository to read from. */
  checkedOut: boolean;
  repo: WorkingCopy;
  remote: Remote;
  /** A file at a commit or branch through the contents API, for a job with no checkout. */
  viaApi: (path: string, ref: string) => Promise<string | undefined>;
  /** crew's own workflow file, as GITHUB_WORKFLOW_REF names it (`crew.yml` by default). */
  workflowFile: string;
  /** The job's name in the workflow (GITHUB_JOB, else the step). */
  jobName: string;
  startedAt: number;
  /** Said in the job log: why crew's own workflow file could not be read (its readers then say only that it is missing). */
  warn: (message: string) => void;
}): { read(path: string): Promise<string | undefined>; jobLimit(): Promise<JobLimit>; ciWorkflows(): Promise<CiWorkflowsRead> } {
  const { remote, repo } = o;
  /** The event's commit when the job runs on the default branch (comments and crew's dispatches do), so no fetch is needed; otherwise the branch. */
  const revision = async (): Promise<{ sha: string } | { branch: string }> => {
    const branch = await o.defaultBranch();
    const sha = process.env.GITHUB_SHA;
    return sha && process.env.GITHUB_REF === `refs/heads/${branch}` ? { sha } : { branch };
  };
  let ref: Promise<string> | undefined;
  const fetched = () =>
    (ref ??= (async () => {
      const at = await revision();
      // The event's commit; actions/checkout of the branch has only its tip, which may have moved on since the
      // event (a re-run of the job, or a merge while it queued): then the commit is fetched by id.
      if ('sha' in at) {
        await remote.fetchCommit(at.sha);
        return at.sha;
      }
      await remote.fetch([at.branch]);
      return remote.tracking(at.branch);
    })());
  // A job with no checkout of the repository (the reusable workflow's merge and cleanup jobs need no working tree)
  // reads the few files it needs through the contents API: one request each instead of a checkout's two (#31 §4).
  const read = async (path: string): Promise<string | undefined> => {
    if (o.checkedOut) return repo.readFileAt(await fetched(), path);
    const at = await revision();
    return o.viaApi(path, 'sha' in at ? at.sha : at.branch);
  };
  const workflowPath = (process.env.GITHUB_WORKFLOW_REF ?? '').replace(/@.*$/, '').split('/').slice(2).join('/') || `.github/workflows/${o.workflowFile}`;
  let ownWorkflowText: Promise<string | undefined> | undefined;
  const ownWorkflow = () =>
    (ownWorkflowText ??= read(workflowPath).catch((e: unknown) => {
      o.warn(
        `could not read ${workflowPath} from the default branch (${e instanceof Error ? e.message.split('\n')[0] : String(e)}): crew takes the job's time limit and fix_ci's workflows as unknown`,
      );
      return undefined;
    }));
  return {
    read,
    async jobLimit() {
      const text = await ownWorkflow();
      // The short form holds no crew job: they are in crew-jobs.yml, at the commit this action runs from.
      const called = callsCrewJobs(text);
      const limit = called ? readJobTimeout(readOwnFile(CREW_JOBS_FILE), o.jobName, `crew's ${CREW_JOBS_FILE}`) : readJobTimeout(text, o.jobName, workflowPath);
      // A GitHub-hosted job stops after 6 hours whatever the file says (docs: "Usage limits").
      const cap = process.env.RUNNER_ENVIRONMENT === 'github-hosted' ? GITHUB_DEFAULT_JOB_MINUTES : Infinity;
      const where = called ? { calledWorkflow: true } : {};
      return 'minutes' in limit
        ? { minutes: Math.min(limit.minutes, cap), startedAt: o.startedAt, ...where }
        : { minutes: SHIPPED_WORK_JOB_MINUTES, startedAt: o.startedAt, unreadable: limit.unreadable, ...where };
    },
    ciWorkflows: async () => readCiWorkflows(await ownWorkflow(), workflowPath),
  };
}
