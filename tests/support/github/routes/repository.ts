import { parse as parseYaml } from 'yaml';
import { HttpError, notFound, validationFailed, type Route } from '../http-types';
import type { FakeGitHub } from '../fake-github';
import { legacyPermission, type FakeCheckRun, type FakeStatus } from '../model';
import type { Principal } from '../model';
import { eventPayload } from './issues';
import { paginate } from './paginate';

function repositoryJson(gh: FakeGitHub, login?: string) {
  const p = login ? gh.permissionOf(login) : undefined;
  const permissions = p
    ? {
        admin: p === 'admin',
        maintain: p === 'admin' || p === 'maintain',
        push: ['admin', 'maintain', 'write'].includes(p),
        triage: p !== 'read' && p !== 'none',
        pull: p !== 'none',
      }
    : undefined;
  return gh.serialize.repository(gh.settings, gh.defaultBranch, gh.createdAt, permissions);
}

async function resolveRef(gh: FakeGitHub, ref: string): Promise<string> {
  const sha = /^[0-9a-f]{40}$/.test(ref)
    ? ref
    : ((await gh.repo.resolve(`refs/heads/${ref}`)) ?? (await gh.repo.resolve(`refs/tags/${ref}`)) ?? (await gh.repo.resolve(ref)));
  if (!sha) throw new HttpError(422, `No commit found for SHA: ${ref}`);
  return sha;
}

/**
 * One side of a comparison's BASE...HEAD: a branch, a tag or a commit sha (full or
 * abbreviated), optionally as `OWNER:ref`. The fake holds one repository, so another
 * owner's fork is never found. Revision syntax such as `main~1` finds nothing here.
 */
async function compareSide(gh: FakeGitHub, side: string): Promise<string | undefined> {
  const colon = side.indexOf(':');
  let ref = side;
  if (colon >= 0) {
    if (side.slice(0, colon).toLowerCase() !== gh.owner.toLowerCase()) return undefined;
    ref = side.slice(colon + 1);
  }
  // What git refuses in a ref name (git check-ref-format), and would otherwise read as revision syntax.
  if (!ref || ref.startsWith('-') || ref.startsWith('/') || ref.endsWith('/') || /\.\.|@\{|[\x00-\x20~^:?*[\\\x7f]/.test(ref)) return undefined;
  return (
    (await gh.repo.resolve(`refs/heads/${ref}`)) ??
    (await gh.repo.resolve(`refs/tags/${ref}`)) ??
    (/^[0-9a-f]{7,40}$/i.test(ref) ? await gh.repo.resolve(ref) : undefined)
  );
}

/** At most this many commits without paging, and this many files on any comparison. */
const COMPARE_COMMITS = 250;
const COMPARE_FILES = 300;

/** The `on:` block of a workflow file, normalised to an object. */
function triggers(yamlText: string): Record<string, any> {
  const doc = parseYaml(yamlText) as Record<string, unknown>;
  const on = doc.on ?? doc[true as unknown as string]; // YAML 1.1 readers turn a bare `on` into true
  if (typeof on === 'string') return { [on]: {} };
  if (Array.isArray(on)) return Object.fromEntries(on.map((e) => [e, {}]));
  return (on as Record<string, any>) ?? {};
}

/**
 * GitHub's check suite is one per app and head commit; when its last run completes, the
 * suite completes and \`check_suite: completed\` fires, listing the open pull requests of the
 * same repository whose head is that commit. Suites from GitHub Actions start no runs (emit
 * drops events from the workflow token).
 */
async function emitCheckSuiteCompleted(gh: FakeGitHub, principal: Principal, run: FakeCheckRun): Promise<void> {
  const suite = gh.checkRuns.filter((c) => c.app === run.app && c.head_sha === run.head_sha);
  if (suite.some((c) => c.status !== 'completed')) return;
  const order = ['action_required', 'cancelled', 'timed_out', 'failure', 'neutral', 'skipped', 'stale', 'success'];
  const conclusion = suite.map((c) => c.conclusion ?? 'success').sort((a, b) => order.indexOf(a) - order.indexOf(b))[0];
  const pulls = [];
  for (const p of gh.pulls.values()) {
    if (gh.issues.get(p.number)?.state !== 'open' || (await gh.repo.branchSha(p.head)) !== run.head_sha) continue;
    pulls.push({
      url: `${gh.serialize.repoApi}/pulls/${p.number}`,
      id: p.id,
      number: p.number,
      head: { ref: p.head, sha: run.head_sha, repo: { id: 1, url: gh.serialize.repoApi, name: gh.repoName } },
      base: { ref: p.base, sha: (await gh.repo.branchSha(p.base)) ?? '', repo: { id: 1, url: gh.serialize.repoApi, name: gh.repoName } },
    });
  }
  const example = eventPayload(gh, 'check_suite.completed', principal.login, {}) as { check_suite: Record<string, unknown> };
  // GitHub names the branch the head was pushed to, pull request or not (a suite on crew/state has
  // head_branch 'crew/state' and no pull_requests); the fake takes a branch whose tip it is.
  const headBranch = pulls[0]?.head.ref ?? (await branchAt(gh, run.head_sha));
  gh.emit(principal, 'check_suite', {
    ...example,
    action: 'completed',
    check_suite: {
      ...example.check_suite,
      head_branch: headBranch,
      head_sha: run.head_sha,
      after: run.head_sha,
      status: 'completed',
      conclusion,
      pull_requests: pulls,
      latest_check_runs_count: suite.length,
      updated_at: gh.now(),
    },
  });
}

async function branchAt(gh: FakeGitHub, sha: string): Promise<string | null> {
  const ref = (await gh.repo.listRefs('refs/heads/')).find((r) => r.sha === sha)?.ref;
  return ref ? ref.slice('refs/heads/'.length) : null;
}

export const repositoryRoutes: Record<string, Route> = {
  'GET /repos/{owner}/{repo}': {
    scope: 'metadata',
    access: 'read',
    handle: ({ gh, principal }) => ({ status: 200, body: repositoryJson(gh, principal.kind === 'user' ? principal.login : undefined) }),
  },
  'GET /users/{username}': {
    scope: 'metadata',
    access: 'none',
    handle({ gh, params }) {
      if (!gh.users.has(params.username!)) throw notFound();
      return { status: 200, body: gh.serialize.publicUser(params.username!, gh.createdAt) };
    },
  },
  'GET /user': {
    scope: 'metadata',
    access: 'none',
    handle({ gh, principal }) {
      if (principal.kind !== 'user') throw new HttpError(403, 'Resource not accessible by integration');
      const base = gh.serialize.publicUser(principal.login, gh.createdAt);
      return {
        status: 200,
        body: { ...base, private_gists: 0, total_private_repos: 0, owned_private_repos: 0, disk_usage: 0, collaborators: 0, two_factor_authentication: true },
      };
    },
  },
  'GET /repos/{owner}/{repo}/collaborators/{username}/permission': {
    scope: 'metadata',
    access: 'read',
    handle({ gh, params }) {
      const login = params.username!;
      if (!gh.users.has(login)) throw notFound();
      const p = gh.permissionOf(login);
      const legacy = legacyPermission(p);
      return {
        status: 200,
        body: {
          permission: legacy,
          role_name: p,
          user: {
            ...gh.serialize.user(login),
            permissions: {
              admin: legacy === 'admin',
              maintain: p === 'maintain' || p === 'admin',
              push: legacy === 'admin' || legacy === 'write',
              triage: p !== 'read' && p !== 'none',
              pull: legacy !== 'none',
            },
            role_name: p,
          },
        },
      };
    },
  },
  'GET /repos/{owner}/{repo}/git/ref/{ref}': {
    scope: 'contents',
    access: 'read',
    async handle({ gh, params }) {
      const full = `refs/${params.ref!}`;
      const sha = await gh.repo.resolve(full);
      if (!sha) throw notFound();
      return { status: 200, body: gh.serialize.gitRef(full, sha) };
    },
  },
  'GET /repos/{owner}/{repo}/git/matching-refs/{ref}': {
    scope: 'contents',
    access: 'read',
    async handle({ gh, params }) {
      // GitHub matches by string prefix: `heads/feat` finds `heads/feature-a`, which git's
      // own pattern matching (whole path components) would not.
      const prefix = `refs/${params.ref!}`;
      const refs = (await gh.repo.listRefs('refs/')).filter((r) => r.ref.startsWith(prefix));
      return { status: 200, body: refs.map((r) => gh.serialize.gitRef(r.ref, r.sha)) };
    },
  },
  'GET /repos/{owner}/{repo}/branches/{branch}': {
    scope: 'contents',
    access: 'read',
    async handle({ gh, params }) {
      const sha = await gh.repo.branchSha(params.branch!);
      if (!sha) throw new HttpError(404, 'Branch not found');
      const info = await gh.repo.commitInfo(sha);
      const commitUrl = `${gh.serialize.repoApi}/commits/${sha}`;
      return {
        status: 200,
        body: {
          name: params.branch!,
          commit: {
            sha,
            node_id: gh.serialize.nodeId('Commit', sha.length),
            url: commitUrl,
            html_url: `${gh.serialize.repoWeb}/commit/${sha}`,
            comments_url: `${commitUrl}/comments`,
            commit: {
              url: `${gh.serialize.repoApi}/git/commits/${sha}`,
              author: { name: 'Fixture', email: 'fixture@example.com', date: gh.createdAt },
              committer: { name: 'Fixture', email: 'fixture@example.com', date: gh.createdAt },
              message: info.message,
              comment_count: 0,
              tree: { sha: info.tree, url: `${gh.serialize.repoApi}/git/trees/${info.tree}` },
            },
            author: null,
            committer: null,
            parents: info.parents.map((p) => ({ sha: p, url: `${gh.serialize.repoApi}/commits/${p}`, html_url: `${gh.serialize.repoWeb}/commit/${p}` })),
          },
          _links: { html: `${gh.serialize.repoWeb}/tree/${params.branch!}`, self: `${gh.serialize.repoApi}/branches/${params.branch!}` },
          protected: gh.settings.protected_branches.includes(params.branch!),
          protection: { enabled: false, required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] } },
          protection_url: `${gh.serialize.repoApi}/branches/${params.branch!}/protection`,
        },
      };
    },
  },
  'GET /repos/{owner}/{repo}/contents/{path}': {
    scope: 'contents',
    access: 'read',
    async handle({ gh, params, url }) {
      const ref = url.searchParams.get('ref') ?? gh.defaultBranch;
      const sha = await resolveRef(gh, ref).catch(() => undefined);
      const text = sha ? await gh.repo.readFile(sha, params.path!) : undefined;
      if (text === undefined) throw notFound();
      // `sha` and git_url name the file's blob, not the commit.
      const blob = (await gh.repo.blobSha(sha!, params.path!))!;
      const path = params.path!;
      const name = path.split('/').pop()!;
      const self = `${gh.serialize.repoApi}/contents/${path}?ref=${encodeURIComponent(ref)}`;
      const html = `${gh.serialize.repoWeb}/blob/${ref}/${path}`;
      const gitUrl = `${gh.serialize.repoApi}/git/blobs/${blob}`;
      // GitHub's docs ("Get repository content", file size limits): "1 MB or smaller: all features"; a file of 1 MB to
      // 100 MB comes with an empty `content` and `encoding: "none"` (only the raw and object media types are
      // supported); over 100 MB "this endpoint is not supported": refused, 403 with the error code too_large.
      const size = Buffer.byteLength(text);
      if (size > 100 * 1024 * 1024)
        throw new HttpError(403, 'This API returns blobs up to 100 MB in size. The requested blob is too large to fetch via the API.', {
          errors: [{ resource: 'Blob', field: 'data', code: 'too_large' }],
        });
      const whole = size <= 1024 * 1024;
      return {
        status: 200,
        body: {
          type: 'file',
          encoding: whole ? 'base64' : 'none',
          size,
          name,
          path,
          content: whole ? Buffer.from(text).toString('base64') : '',
          sha: blob,
          url: self,
          git_url: gitUrl,
          html_url: html,
          download_url: `${gh.url}/raw/${gh.owner}/${gh.repoName}/${ref}/${path}`,
          _links: { self, git: gitUrl, html },
        },
      };
    },
  },
  'GET /repos/{owner}/{repo}/compare/{basehead}': {
    scope: 'contents',
    access: 'read',
    async handle({ gh, params, url }) {
      const basehead = params.basehead!;
      // Ref names cannot hold "..", so the first "..." is the only place to split.
      const split = basehead.indexOf('...');
      if (split < 0) throw notFound();
      const base = basehead.slice(0, split);
      const head = basehead.slice(split + 3);
      const baseSha = await compareSide(gh, base);
      const headSha = await compareSide(gh, head);
      if (!baseSha || !headSha) throw notFound();
      const mergeBase = await gh.repo.mergeBase(baseSha, headSha);
      if (!mergeBase) throw new HttpError(404, `No common ancestor between ${base} and ${head}.`);

      const aheadBy = await gh.repo.countCommits(baseSha, headSha);
      const behindBy = await gh.repo.countCommits(headSha, baseSha);
      const status = aheadBy === 0 ? (behindBy === 0 ? 'identical' : 'behind') : behindBy === 0 ? 'ahead' : 'diverged';
      const all = await gh.repo.commitsBetween(baseSha, headSha);
      // Without paging GitHub lists the newest 250 (oldest first); with page or per_page it
      // pages from the oldest, and only the first page carries the files.
      const paged = url.searchParams.has('page') || url.searchParams.has('per_page');
      const page = paged
        ? paginate(all, url, (c) => gh.serialize.commit(c))
        : { body: all.slice(-COMPARE_COMMITS).map((c) => gh.serialize.commit(c)), headers: {} };
      const firstPage = !paged || (Number(url.searchParams.get('page') ?? 1) || 1) <= 1;
      const files = firstPage
        ? (await gh.repo.diffFiles(mergeBase, headSha))
            .slice(0, COMPARE_FILES)
            .map((f) => gh.serialize.diffEntry(f, f.status === 'removed' ? mergeBase : headSha))
        : undefined;

      const link = basehead
        .split('/')
        .map((part) => encodeURIComponent(part).replace(/%3A/gi, ':'))
        .join('/');
      const web = `${gh.serialize.repoWeb}/compare/${link}`;
      return {
        status: 200,
        headers: page.headers,
        body: {
          url: `${gh.serialize.repoApi}/compare/${link}`,
          html_url: web,
          permalink_url: `${gh.serialize.repoWeb}/compare/${gh.owner}:${baseSha}...${gh.owner}:${headSha}`,
          diff_url: `${web}.diff`,
          patch_url: `${web}.patch`,
          base_commit: gh.serialize.commit(await gh.repo.readCommit(baseSha)),
          merge_base_commit: gh.serialize.commit(await gh.repo.readCommit(mergeBase)),
          status,
          ahead_by: aheadBy,
          behind_by: behindBy,
          total_commits: aheadBy,
          commits: page.body,
          ...(files ? { files } : {}),
        },
      };
    },
  },
  'GET /repos/{owner}/{repo}/commits/{ref}/check-runs': {
    scope: 'checks',
    access: 'read',
    async handle({ gh, params, url }) {
      const sha = await resolveRef(gh, params.ref!);
      let runs = gh.checkRuns.filter((c) => c.head_sha === sha);
      // filter=latest (the default) keeps only the most recent run of each name.
      if ((url.searchParams.get('filter') ?? 'latest') === 'latest') {
        const latest = new Map<string, FakeCheckRun>();
        for (const c of runs) latest.set(c.name, c);
        runs = runs.filter((c) => latest.get(c.name) === c);
      }
      const name = url.searchParams.get('check_name');
      const status = url.searchParams.get('status');
      runs = runs.filter((c) => (!name || c.name === name) && (!status || c.status === status));
      const page = paginate(runs, url, (c) => gh.serialize.checkRun(c));
      return { ...page, body: { total_count: runs.length, check_runs: page.body } };
    },
  },
  'POST /repos/{owner}/{repo}/check-runs': {
    scope: 'checks',
    access: 'write',
    creates: true,
    async handle({ gh, principal, body }) {
      // Only GitHub Apps (a workflow's GITHUB_TOKEN included) may create check runs.
      if (principal.kind === 'user') throw new HttpError(403, 'You must authenticate via a GitHub App.');
      if (typeof body.name !== 'string' || typeof body.head_sha !== 'string') throw validationFailed('CheckRun', 'name', 'missing_field');
      const now = gh.now();
      const run: FakeCheckRun = {
        id: gh.nextId('check'),
        head_sha: body.head_sha,
        name: body.name,
        status: body.conclusion ? 'completed' : (body.status ?? 'queued'),
        conclusion: body.conclusion ?? null,
        started_at: body.started_at ?? now,
        completed_at: body.conclusion ? (body.completed_at ?? now) : null,
        app: principal.login,
      };
      gh.checkRuns.push(run);
      if (run.status === 'completed') await emitCheckSuiteCompleted(gh, principal, run);
      return { status: 201, body: gh.serialize.checkRun(run) };
    },
  },
  'GET /repos/{owner}/{repo}/commits/{ref}/status': {
    scope: 'statuses',
    access: 'read',
    async handle({ gh, params }) {
      const sha = await resolveRef(gh, params.ref!);
      // The combined status keeps only the latest status per context.
      const latest = new Map<string, FakeStatus>();
      for (const s of gh.statuses.filter((x) => x.sha === sha)) latest.set(s.context, s);
      const list = [...latest.values()];
      // GitHub: failure if any context reports error or failure; otherwise pending if there
      // are no statuses or one is pending; success only when every latest status is success.
      const state = list.some((s) => s.state === 'failure' || s.state === 'error')
        ? 'failure'
        : list.length === 0 || list.some((s) => s.state === 'pending')
          ? 'pending'
          : 'success';
      return {
        status: 200,
        body: {
          state,
          statuses: list.map((s) => gh.serialize.status(s)),
          sha,
          total_count: list.length,
          repository: { ...repositoryJson(gh), owner: gh.serialize.user(gh.owner) },
          commit_url: `${gh.serialize.repoApi}/commits/${sha}`,
          url: `${gh.serialize.repoApi}/commits/${sha}/status`,
        },
      };
    },
  },
  'POST /repos/{owner}/{repo}/statuses/{sha}': {
    scope: 'statuses',
    access: 'write',
    creates: true,
    async handle({ gh, principal, params, body }) {
      if (!['error', 'failure', 'pending', 'success'].includes(body.state)) throw validationFailed('Status', 'state', 'invalid');
      if (!/^[0-9a-f]{40}$/.test(params.sha!) || !(await gh.repo.resolve(params.sha!))) throw new HttpError(422, `No commit found for SHA: ${params.sha!}`);
      const now = gh.now();
      const s: FakeStatus = {
        id: gh.nextId('status'),
        sha: params.sha!,
        state: body.state,
        context: body.context ?? 'default',
        description: body.description ?? null,
        target_url: body.target_url ?? null,
        creator: principal.login,
        created_at: now,
        updated_at: now,
      };
      gh.statuses.push(s);
      return { status: 201, body: gh.serialize.status(s) };
    },
  },
  'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches': {
    scope: 'actions',
    access: 'write',
    async handle({ gh, principal, params, body }) {
      const ref = String(body.ref ?? '');
      const branch = ref.replace(/^refs\/heads\//, '');
      const sha = await gh.repo.branchSha(branch);
      if (!sha) throw new HttpError(422, `No ref found for: ${ref}`);
      const file = `.github/workflows/${params.workflow_id!}`;
      const text = await gh.repo.readFile(sha, file);
      if (text === undefined) throw notFound();
      const dispatch = triggers(text).workflow_dispatch;
      if (dispatch === undefined) throw new HttpError(422, "Workflow does not have 'workflow_dispatch' trigger");
      const declared: Record<string, { required?: boolean; default?: unknown; type?: string; options?: unknown[] }> = dispatch?.inputs ?? {};
      const given: Record<string, unknown> = body.inputs ?? {};
      const unexpected = Object.keys(given).filter((k) => !(k in declared));
      if (unexpected.length) throw new HttpError(422, `Unexpected inputs provided: ${JSON.stringify(unexpected)}`);
      const missing = Object.entries(declared)
        .filter(([k, d]) => d.required && given[k] === undefined && d.default === undefined)
        .map(([k]) => k);
      if (missing.length) throw new HttpError(422, `Required input '${missing[0]}' not provided`);
      for (const [k, d] of Object.entries(declared)) {
        const v = given[k];
        if (v !== undefined && d.type === 'choice' && Array.isArray(d.options) && !d.options.map(String).includes(String(v))) {
          throw new HttpError(422, `Provided value '${String(v)}' for input '${k}' not in the list of allowed values`);
        }
      }
      const inputs: Record<string, string> = {};
      for (const [k, d] of Object.entries(declared)) {
        const v = given[k] ?? d.default;
        if (v !== undefined) inputs[k] = String(v);
      }
      gh.emit(principal, 'workflow_dispatch', eventPayload(gh, 'workflow_dispatch', principal.login, { inputs, ref: `refs/heads/${branch}`, workflow: file }));
      return { status: 204 };
    },
  },
  'GET /rate_limit': {
    scope: 'metadata',
    access: 'none',
    handle({ gh, principal }) {
      const w = gh.rateWindow(principal);
      const core = { limit: w.limit, used: w.used, remaining: Math.max(0, w.limit - w.used), reset: w.reset };
      return { status: 200, body: { resources: { core, search: { limit: 30, used: 0, remaining: 30, reset: w.reset } }, rate: core } };
    },
  },
};
