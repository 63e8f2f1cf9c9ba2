import type { GitHubClient } from './octokit';

/** A file the contents API sends without its content (over 1 MB): which one, so the caller can say it and go on. */
export class FileTooLarge extends Error {
  constructor(
    readonly path: string,
    ref: string,
    readonly size: number,
  ) {
    super(`${path} at ${ref.slice(0, 12)} is ${size} bytes, too large for GitHub's contents API to send (1 MB at most); make it smaller`);
  }
}

/**
 * A file of the repository at a commit or branch, through the contents API (GET
 * /repos/{owner}/{repo}/contents/{path}?ref=), for jobs that check nothing out: the merge and cleanup
 * jobs run none of the repository's code and read only crew's configuration and workflow (#31 §4).
 * undefined: no file there (404, or a folder). The API sends a file over 1 MB without its
 * content (`encoding: "none"`; GitHub's docs, "Get repository content"): that is FileTooLarge.
 */
export async function repositoryFileAt(gh: GitHubClient, repo: { owner: string; repo: string }, path: string, ref: string): Promise<string | undefined> {
  const data = await gh.request('GET /repos/{owner}/{repo}/contents/{path}', { ...repo, path, ref }).then(
    (answer) => answer.data,
    (e: unknown) => {
      if ((e as { status?: unknown }).status === 404) return undefined;
      throw e;
    },
  );
  if (data === undefined) return undefined;
  if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) return undefined;
  if (data.encoding !== 'base64') throw new FileTooLarge(path, ref, data.size);
  return Buffer.from(data.content, 'base64').toString('utf8');
}
