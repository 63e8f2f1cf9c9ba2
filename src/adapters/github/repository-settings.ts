import type { Read } from '../../domain/doctor';
import type { RepositorySettings } from '../../ports';
import type { GitHubClient } from './octokit';
import { FileTooLarge, repositoryFileAt } from './repository-files';

/** An HTTP error from Octokit as a Read; anything else (no answer at all) is thrown. */
function refused(e: unknown): { ok: false; status: number; message: string } {
  const status = (e as { status?: unknown }).status;
  if (typeof status !== 'number') throw e;
  const message = ((e as { response?: { data?: { message?: unknown } } }).response?.data?.message as string | undefined) ?? (e as Error).message;
  return { ok: false, status, message };
}

async function read<T>(call: () => Promise<T>): Promise<Read<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (e) {
    return refused(e);
  }
}

/**
 * The RepositorySettings port over GitHub's REST API: GET actions/permissions and
 * actions/permissions/workflow (admin only), rules/branches/{branch} (any reader; the branch need
 * not exist), branches/{branch}/protection (admin), contents/{path} on the default branch, and
 * actions/secrets/{name} (its name and dates only).
 */
export class GitHubRepositorySettings implements RepositorySettings {
  private defaultBranch?: string;

  constructor(
    private readonly gh: GitHubClient,
    private readonly repo: { owner: string; repo: string },
    private readonly webBase: string,
  ) {}

  async repository() {
    const { data } = await this.gh.request('GET /repos/{owner}/{repo}', this.repo);
    this.defaultBranch = data.default_branch;
    return { fullName: data.full_name, webUrl: `${this.webBase}/${data.full_name}`, defaultBranch: data.default_branch };
  }

  actionsPermissions() {
    return read(async () => ({ enabled: (await this.gh.request('GET /repos/{owner}/{repo}/actions/permissions', this.repo)).data.enabled }));
  }

  workflowPermissions() {
    return read(async () => {
      const { data } = await this.gh.request('GET /repos/{owner}/{repo}/actions/permissions/workflow', this.repo);
      // GitHub's name for "Allow GitHub Actions to create and approve pull requests".
      return { defaultPermissions: data.default_workflow_permissions, canCreatePullRequests: data.can_approve_pull_request_reviews };
    });
  }

  branchRules(branch: string) {
    return read(async () => {
      const rules = await this.gh.paginate('GET /repos/{owner}/{repo}/rules/branches/{branch}', { ...this.repo, branch, per_page: 100 });
      return [...new Set(rules.map((r) => r.type))];
    });
  }

  async branchProtected(branch: string): Promise<Read<boolean | 'absent' | 'unreadable'>> {
    // GET branches/{branch} is open to any reader; its `protected` is then confirmed where the token may read the rule.
    try {
      if (!(await this.gh.request('GET /repos/{owner}/{repo}/branches/{branch}', { ...this.repo, branch })).data.protected) return { ok: true, value: false };
    } catch (e) {
      const r = refused(e);
      return r.status === 404 ? { ok: true, value: 'absent' } : r;
    }
    try {
      await this.gh.request('GET /repos/{owner}/{repo}/branches/{branch}/protection', { ...this.repo, branch });
      return { ok: true, value: true };
    } catch (e) {
      const r = refused(e);
      // Protected, yet no classic rule: a ruleset, which branchRules reports.
      if (r.status === 404) return { ok: true, value: false };
      if (r.status === 403) return { ok: true, value: 'unreadable' };
      return r;
    }
  }

  async defaultBranchFile(path: string): Promise<Read<string | null>> {
    const ref = this.defaultBranch ?? (await this.repository()).defaultBranch;
    return read(async () => (await repositoryFileAt(this.gh, this.repo, path, ref)) ?? null).catch((e: unknown) => {
      // Not an HTTP refusal (GitHub answered 200 without the content): status 0, the message names the file.
      if (e instanceof FileTooLarge) return { ok: false as const, status: 0, message: e.message };
      throw e;
    });
  }

  async secretExists(name: string): Promise<Read<boolean>> {
    try {
      await this.gh.request('GET /repos/{owner}/{repo}/actions/secrets/{secret_name}', { ...this.repo, secret_name: name });
      return { ok: true, value: true };
    } catch (e) {
      const r = refused(e);
      return r.status === 404 ? { ok: true, value: false } : r;
    }
  }
}
