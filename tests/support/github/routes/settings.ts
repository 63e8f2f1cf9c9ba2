import { HttpError, type Route } from '../http-types';
import type { FakeGitHub } from '../fake-github';

/**
 * What `crew doctor` reads of a repository's settings, served as GitHub serves it:
 * - Actions permissions and the default workflow permissions are repository administration: a person
 *   needs admin, an app or fine-grained token "Administration: read", and GITHUB_TOKEN can never hold
 *   that (docs: "REST API endpoints for GitHub Actions permissions"; "Permissions for the GITHUB_TOKEN");
 * - the rules a branch would meet need only metadata read, and the branch need not exist; rulesets in
 *   "evaluate" or "disabled" are left out (docs: "REST API endpoints for rules", Get rules for a branch);
 * - a branch's classic protection is admin only: 404 "Branch not protected", or "Branch not found"
 *   (docs: "REST API endpoints for protected branches");
 * - a secret's name and dates, never its value, to collaborators with write access or a token with
 *   "Secrets: read" (docs: "REST API endpoints for GitHub Actions Secrets").
 */

/** Ruleset ids as GitHub numbers them today (seven digits); one per rule the fake models. */
const SIGNED_COMMITS_RULESET = 4_218_531;
const NO_DELETION_RULESET = 4_218_532;

function rulesFor(gh: FakeGitHub, branch: string) {
  const source = { ruleset_source_type: 'Repository' as const, ruleset_source: `${gh.owner}/${gh.repoName}` };
  const rules: Array<Record<string, unknown>> = [];
  if (gh.settings.ruleset_branch_prefixes.some((p) => branch.startsWith(p)))
    rules.push({ type: 'required_signatures', ...source, ruleset_id: SIGNED_COMMITS_RULESET });
  if (gh.settings.ruleset_deletion_prefixes.some((p) => branch.startsWith(p))) rules.push({ type: 'deletion', ...source, ruleset_id: NO_DELETION_RULESET });
  return rules;
}

export const settingsRoutes: Record<string, Route> = {
  'GET /repos/{owner}/{repo}/actions/permissions': {
    scope: 'administration',
    access: 'read',
    userAccess: 'admin',
    handle: ({ gh }) => ({
      status: 200,
      body: gh.settings.actions_enabled
        ? { enabled: true, allowed_actions: 'all', sha_pinning_required: false }
        : // GitHub leaves allowed_actions out when Actions is off.
          { enabled: false },
    }),
  },
  'GET /repos/{owner}/{repo}/actions/permissions/workflow': {
    scope: 'administration',
    access: 'read',
    userAccess: 'admin',
    handle: ({ gh }) => ({
      status: 200,
      body: {
        default_workflow_permissions: gh.settings.default_workflow_permissions,
        // The setting "Allow GitHub Actions to create and approve pull requests" (its API name says approve only).
        can_approve_pull_request_reviews: gh.settings.actions_can_create_pull_requests,
      },
    }),
  },
  'GET /repos/{owner}/{repo}/rules/branches/{branch}': {
    scope: 'metadata',
    access: 'read',
    handle: ({ gh, params, query }) => {
      const rules = rulesFor(gh, params.branch!);
      const perPage = Math.min(Number(query.get('per_page') ?? 30) || 30, 100);
      const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
      return { status: 200, body: rules.slice((page - 1) * perPage, page * perPage) };
    },
  },
  'GET /repos/{owner}/{repo}/branches/{branch}/protection': {
    scope: 'administration',
    access: 'read',
    userAccess: 'admin',
    async handle({ gh, params }) {
      const branch = params.branch!;
      if (!(await gh.repo.branchSha(branch))) throw new HttpError(404, 'Branch not found');
      if (!gh.settings.protected_branches.includes(branch)) throw new HttpError(404, 'Branch not protected');
      const url = `${gh.serialize.repoApi}/branches/${branch}/protection`;
      return {
        status: 200,
        body: {
          url,
          required_pull_request_reviews: {
            url: `${url}/required_pull_request_reviews`,
            dismiss_stale_reviews: false,
            require_code_owner_reviews: false,
            required_approving_review_count: 1,
          },
          enforce_admins: { url: `${url}/enforce_admins`, enabled: false },
          required_linear_history: { enabled: false },
          allow_force_pushes: { enabled: false },
          allow_deletions: { enabled: false },
        },
      };
    },
  },
  'GET /repos/{owner}/{repo}/actions/secrets/{secret_name}': {
    scope: 'secrets',
    access: 'read',
    userAccess: 'write',
    handle: ({ gh, params }) => {
      // Secret names are case-insensitive on GitHub (stored upper-case).
      const name = params.secret_name!.toUpperCase();
      if (!gh.settings.secrets.map((s) => s.toUpperCase()).includes(name)) throw new HttpError(404, 'Not Found');
      return { status: 200, body: { name, created_at: gh.createdAt, updated_at: gh.createdAt } };
    },
  },
};
