import { notFound, type Route } from '../http-types';

/** The Actions API crew reads: whether a workflow run (one that claimed a task) is still alive. */
export const actionsRoutes: Record<string, Route> = {
  'GET /repos/{owner}/{repo}/actions/runs/{run_id}': {
    scope: 'actions',
    access: 'read',
    async handle({ gh, params }) {
      const run = gh.workflowRuns.get(Number(params.run_id));
      if (!run) throw notFound();
      const api = gh.serialize.repoApi;
      const url = `${api}/actions/runs/${run.id}`;
      const repository = gh.serialize.repository(gh.settings, gh.defaultBranch, gh.createdAt);
      const info = run.headSha ? await gh.repo.commitInfo(run.headSha).catch(() => undefined) : undefined;
      return {
        status: 200,
        body: {
          id: run.id,
          name: 'crew',
          node_id: gh.serialize.nodeId('WorkflowRun', run.id),
          head_branch: run.headBranch,
          head_sha: run.headSha,
          path: run.path,
          display_title: run.event,
          run_number: run.runNumber,
          run_attempt: 1,
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
          head_repository: repository,
        },
      };
    },
  },
};
