import type { FakeGitHub } from '../fake-github';
import { notFound, type Route } from '../http-types';
import type { FakeWorkflowJob, FakeWorkflowRun } from '../model';
import { paginate } from './paginate';

/** A workflow run as the REST API and the `workflow_run` event show it. */
export async function serializeWorkflowRun(gh: FakeGitHub, run: FakeWorkflowRun): Promise<Record<string, unknown>> {
  const api = gh.serialize.repoApi;
  const url = `${api}/actions/runs/${run.id}`;
  const repository = gh.serialize.repository(gh.settings, gh.defaultBranch, gh.createdAt);
  // A run for a fork's pull request names the fork as its head repository.
  const headRepository = run.headOwner
    ? {
        ...repository,
        id: repository.id + 1,
        full_name: `${run.headOwner}/${gh.repoName}`,
        owner: gh.serialize.user(run.headOwner),
        html_url: `${gh.url}/${run.headOwner}/${gh.repoName}`,
        fork: true,
      }
    : repository;
  const info = run.headSha ? await gh.repo.commitInfo(run.headSha).catch(() => undefined) : undefined;
  return {
    id: run.id,
    name: run.name,
    node_id: gh.serialize.nodeId('WorkflowRun', run.id),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.path,
    display_title: run.event,
    run_number: run.runNumber,
    run_attempt: run.runAttempt ?? 1,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: 1,
    url,
    html_url: `${gh.serialize.repoWeb}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    run_started_at: run.createdAt,
    actor: gh.serialize.user(run.actor),
    triggering_actor: gh.serialize.user(run.actor),
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${api}/check-suites/${run.id}`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    workflow_url: `${api}/actions/workflows/1`,
    head_commit: info
      ? {
          id: run.headSha,
          tree_id: info.tree,
          message: info.message,
          timestamp: gh.createdAt,
          author: { name: 'Fixture', email: 'fixture@example.com' },
          committer: { name: 'Fixture', email: 'fixture@example.com' },
        }
      : null,
    repository,
    head_repository: headRepository,
  };
}

function serializeJob(gh: FakeGitHub, j: FakeWorkflowJob) {
  const api = gh.serialize.repoApi;
  return {
    id: j.id,
    run_id: j.runId,
    run_url: `${api}/actions/runs/${j.runId}`,
    node_id: gh.serialize.nodeId('WorkflowJob', j.id),
    head_sha: j.headSha,
    head_branch: j.headBranch,
    workflow_name: j.workflowName,
    url: `${api}/actions/jobs/${j.id}`,
    html_url: `${gh.serialize.repoWeb}/actions/runs/${j.runId}/job/${j.id}`,
    status: j.status,
    conclusion: j.conclusion,
    created_at: j.startedAt,
    started_at: j.startedAt,
    completed_at: j.completedAt,
    name: j.name,
    steps: j.steps.map((s) => ({
      name: s.name,
      status: 'completed',
      conclusion: s.conclusion,
      number: s.number,
      started_at: j.startedAt,
      completed_at: j.completedAt,
    })),
    check_run_url: `${api}/check-runs/${j.id}`,
    labels: ['ubuntu-latest'],
    runner_id: 1,
    runner_name: 'fake-runner',
    runner_group_id: 1,
    runner_group_name: 'GitHub Actions',
    run_attempt: j.runAttempt ?? 1,
  };
}

/** The Actions API crew reads: whether a workflow run is alive; a failed CI run's jobs and their logs. */
export const actionsRoutes: Record<string, Route> = {
  // "List workflow runs for a repository": newest first, narrowed by `event` and `status` (a status
  // or a conclusion); `{ total_count, workflow_runs }`. crew sends no other filter, so none is kept.
  'GET /repos/{owner}/{repo}/actions/runs': {
    scope: 'actions',
    access: 'read',
    async handle({ gh, url }) {
      const q = url.searchParams;
      const event = q.get('event');
      const status = q.get('status');
      const runs = [...gh.workflowRuns.values()]
        .filter((r) => !event || r.event === event)
        .filter((r) => !status || r.status === status || r.conclusion === status)
        .sort((a, b) => b.id - a.id);
      const page = paginate(runs, url, (r) => r);
      const body = await Promise.all((page.body as typeof runs).map((r) => serializeWorkflowRun(gh, r)));
      return { ...page, body: { total_count: runs.length, workflow_runs: body } };
    },
  },
  'GET /repos/{owner}/{repo}/actions/runs/{run_id}': {
    scope: 'actions',
    access: 'read',
    async handle({ gh, params }) {
      const run = gh.workflowRuns.get(Number(params.run_id));
      if (!run) throw notFound();
      return { status: 200, body: await serializeWorkflowRun(gh, run) };
    },
  },
  'GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs': {
    scope: 'actions',
    access: 'read',
    handle({ gh, params, url }) {
      const runId = Number(params.run_id);
      if (!gh.workflowRuns.has(runId)) throw notFound();
      // `filter=latest` (the default) lists the jobs of the run's newest attempt, `all` every attempt's
      // (docs: "List jobs for a workflow run"). A re-run here re-runs every job, so the newest attempt has them all.
      const attempt = gh.workflowRuns.get(runId)!.runAttempt ?? 1;
      const latest = (url.searchParams.get('filter') ?? 'latest') === 'latest';
      const jobs = [...gh.workflowJobs.values()].filter((j) => j.runId === runId && (!latest || (j.runAttempt ?? 1) === attempt)).sort((a, b) => a.id - b.id);
      const page = paginate(jobs, url, (j) => serializeJob(gh, j));
      return { ...page, body: { total_count: jobs.length, jobs: page.body } };
    },
  },
  'GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs': {
    scope: 'actions',
    access: 'read',
    handle({ gh, params }) {
      const job = gh.workflowJobs.get(Number(params.job_id));
      if (!job) throw notFound();
      // GitHub answers 302 with the log's short-lived address on another host (documented: 302 only).
      return { status: 302, headers: { location: gh.jobLogLink(job.id) } };
    },
  },
};
