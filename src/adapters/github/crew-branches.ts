import { assertBranchName, assertRevision } from '../../domain/refs';
import type { BranchCommit, BranchTip } from '../../domain/retention';
import type { BranchDeletion, CrewBranches } from '../../ports';
import type { GitRemote } from '../git/remote';
import type { GitHubClient } from './octokit';

/** Commits asked for per page of a comparison (GitHub's most). */
const PER_PAGE = 100;
/** Pages read of one comparison: a crew branch holds a few commits; one with more than this many is not crew's alone. */
const MAX_PAGES = 5;

/**
 * The CrewBranches port on GitHub: the listing and the leased deletions go over git (one round trip
 * each, through the job's own git client), and who made a branch's commits comes from the REST
 * comparison `GET …/compare/{base}...{head}`, which lists the commits `head` has that `base` has not,
 * with their author and committer as git recorded them (paged from the oldest with `per_page`).
 */
export class GitHubCrewBranches implements CrewBranches {
  constructor(
    private readonly remote: Pick<GitRemote, 'crewBranches' | 'deleteBranches' | 'listedBranches'>,
    private readonly gh: GitHubClient,
    private readonly repo: { owner: string; repo: string },
  ) {}

  list(folders?: readonly string[]): Promise<BranchTip[]> {
    return this.remote.crewBranches(folders);
  }

  listed(folders: readonly string[]): BranchTip[] | undefined {
    return this.remote.listedBranches(folders);
  }

  async commitsBeyond(base: string, sha: string): Promise<{ commits: BranchCommit[]; complete: boolean } | undefined> {
    const basehead = `${assertBranchName(base)}...${assertRevision(sha)}`;
    const commits: BranchCommit[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await this.gh
        .request('GET /repos/{owner}/{repo}/compare/{basehead}', { ...this.repo, basehead, per_page: PER_PAGE, page })
        .catch((e: unknown) => {
          // 404: GitHub knows no such base (or commit); anything else is a failure the caller sees.
          if ((e as { status?: unknown }).status === 404) return undefined;
          throw e;
        });
      if (!answer) return undefined;
      const { data } = answer;
      for (const c of data.commits) {
        commits.push({
          sha: c.sha,
          author: { name: c.commit.author?.name ?? '', email: c.commit.author?.email ?? '' },
          committer: { name: c.commit.committer?.name ?? '', email: c.commit.committer?.email ?? '' },
        });
      }
      if (data.commits.length < PER_PAGE || commits.length >= data.total_commits) return { commits, complete: true };
    }
    return { commits, complete: false };
  }

  delete(tips: readonly BranchTip[]): Promise<BranchDeletion[]> {
    return this.remote.deleteBranches(tips);
  }
}
