import { HttpError, notFound, validationFailed, type Route } from '../http-types';
import type { FakeRelease, Principal } from '../model';

/**
 * GitHub refuses a ref update that brings in commits changing `.github/workflows/` from a GitHub
 * App without the `workflows` permission, which a workflow's GITHUB_TOKEN never has, over REST
 * as over git (a bare 403; mkb79/Audible#882, cloudposse/atmos#2962: moving a tag past such commits).
 */
async function refuseWorkflowChange(gh: Parameters<Route['handle']>[0]['gh'], principal: Principal, from: string | undefined, to: string): Promise<void> {
  const app = principal.kind === 'actions' || (principal.kind === 'app' && principal.scopes.workflows !== 'write');
  const file = app ? await gh.repo.workflowChangedBetween(from, to) : undefined;
  if (file) throw new HttpError(403, `refusing to allow a GitHub App to create or update workflow \`${file}\` without \`workflows\` permission`);
}

/**
 * Git references and releases, as a release workflow uses them (docs: REST "Git references",
 * "Releases"), and a person deleting a branch. A ref's name is checked as GitHub does, a moved ref must fast-forward unless
 * `force`, and one release per tag; a release of a tag that does not exist yet creates the tag
 * at `target_commitish` (the default branch by default).
 */
export const releaseRoutes: Record<string, Route> = {
  'POST /repos/{owner}/{repo}/git/refs': {
    scope: 'contents',
    access: 'write',
    creates: true,
    async handle({ gh, principal, body }) {
      const ref = typeof body.ref === 'string' ? body.ref : '';
      const sha = typeof body.sha === 'string' ? body.sha : '';
      // "If it doesn't start with 'refs' and have at least two slashes, it will be rejected."
      if (!/^refs\/[^/]+\/.+/.test(ref)) throw new HttpError(422, 'Reference name must start with refs/ and have at least two slashes.');
      if (!(await gh.repo.resolve(sha))) throw new HttpError(422, 'Object does not exist');
      if (await gh.repo.resolve(ref)) throw new HttpError(422, 'Reference already exists');
      await refuseWorkflowChange(gh, principal, undefined, sha);
      await gh.repo.setRef(ref, sha);
      return { status: 201, body: gh.serialize.gitRef(ref, sha) };
    },
  },
  'PATCH /repos/{owner}/{repo}/git/refs/{ref}': {
    scope: 'contents',
    access: 'write',
    async handle({ gh, principal, params, body }) {
      const ref = `refs/${params.ref!}`;
      const sha = typeof body.sha === 'string' ? body.sha : '';
      const current = await gh.repo.resolve(ref);
      if (!current) throw new HttpError(422, 'Reference does not exist');
      if (!(await gh.repo.resolve(sha))) throw new HttpError(422, 'Object does not exist');
      if (body.force !== true && !(await gh.repo.isAncestor(current, sha))) throw new HttpError(422, 'Update is not a fast forward');
      await refuseWorkflowChange(gh, principal, current, sha);
      await gh.repo.setRef(ref, sha);
      return { status: 200, body: gh.serialize.gitRef(ref, sha) };
    },
  },
  'DELETE /repos/{owner}/{repo}/git/refs/{ref}': {
    scope: 'contents',
    access: 'write',
    async handle({ gh, principal, params }) {
      const ref = `refs/${params.ref!}`;
      const current = await gh.repo.resolve(ref);
      // REST "Delete a reference": 204, or 422 when the reference does not exist.
      if (!current || !/^refs\/(heads|tags)\//.test(ref)) throw new HttpError(422, 'Reference does not exist');
      const branch = ref.replace(/^refs\/heads\//, '');
      // A ruleset's "Restrict deletions" rule answers 422 "Cannot delete this branch" here (GH013 over git).
      if (ref.startsWith('refs/heads/') && gh.settings.ruleset_deletion_prefixes.some((p) => branch.startsWith(p)))
        throw new HttpError(422, 'Cannot delete this branch');
      await gh.repo.deleteRef(ref);
      // Anyone but a workflow's GITHUB_TOKEN fires `push` (deleted: true), as a deletion over git does.
      if (principal.kind !== 'actions') await gh.pushedBy(principal.login, ref, current, '0'.repeat(40));
      return { status: 204 };
    },
  },
  'POST /repos/{owner}/{repo}/releases': {
    scope: 'contents',
    access: 'write',
    creates: true,
    async handle({ gh, principal, body }) {
      const tag = typeof body.tag_name === 'string' ? body.tag_name : '';
      if (!tag) throw validationFailed('Release', 'tag_name', 'missing_field');
      if ([...gh.releases.values()].some((r) => r.tag_name === tag)) throw validationFailed('Release', 'tag_name', 'already_exists');
      const target = typeof body.target_commitish === 'string' ? body.target_commitish : gh.defaultBranch;
      if (!(await gh.repo.resolve(`refs/tags/${tag}`))) {
        const sha = await gh.repo.resolve(/^[0-9a-f]{40}$/.test(target) ? target : `refs/heads/${target}`);
        if (!sha) throw validationFailed('Release', 'target_commitish', 'invalid');
        await gh.repo.setRef(`refs/tags/${tag}`, sha);
      }
      const now = gh.now();
      const release: FakeRelease = {
        id: gh.nextId('release'),
        tag_name: tag,
        target_commitish: target,
        name: typeof body.name === 'string' ? body.name : null,
        body: typeof body.body === 'string' ? body.body : null,
        draft: body.draft === true,
        prerelease: body.prerelease === true,
        author: principal.login,
        created_at: now,
        published_at: body.draft === true ? null : now,
      };
      gh.releases.set(release.id, release);
      return { status: 201, body: gh.serialize.release(release) };
    },
  },
  'GET /repos/{owner}/{repo}/releases/tags/{tag}': {
    scope: 'contents',
    access: 'read',
    handle({ gh, params }) {
      const release = [...gh.releases.values()].find((r) => r.tag_name === params.tag);
      if (!release) throw notFound();
      return { status: 200, body: gh.serialize.release(release) };
    },
  },
};
