import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BranchTips } from './branch-tips';
import { gitClient, type GitIdentity, type GitPin } from './git-client';
import { ownGit } from '../../sandbox/own-programs';
import { GitRemote } from './remote';
import { GitWorkingCopy } from './working-copy';

/**
 * A job's checkout and its remote (GitHub), sharing one git client: the credentials travel with
 * every command (never in `.git/config`), and the checkout's git folder is pinned as it is now.
 */
export function gitRepo(
  dir: string,
  remoteUrl: string,
  token: string,
  identity?: GitIdentity,
  extraConfig?: Record<string, string>,
  pin: GitPin | undefined = checkoutPin(dir),
  /** Branch tips the job's state store lists, shared so a fetch need not ask again. */
  tips?: BranchTips,
): { repo: GitWorkingCopy; remote: GitRemote; objects?: string } {
  const git = gitClient(dir, token, identity, extraConfig, pin);
  const repo = new GitWorkingCopy(dir, git);
  // The pinned git folder's objects: where a state write that carries the checkout's work reads its commits.
  return { repo, remote: new GitRemote(git, remoteUrl, repo, tips), ...(pin ? { objects: join(pin.gitDir, 'objects') } : {}) };
}

/**
 * A checkout's own `.git` folder, pinned as it is when crew starts (see GitPin); none for anything else,
 * nor for a `.git` folder that is no repository (a job that checked out only crew, into `.git/crew-action`).
 */
function checkoutPin(dir: string): GitPin | undefined {
  const gitDir = join(dir, '.git');
  try {
    return statSync(gitDir).isDirectory() && statSync(join(gitDir, 'HEAD')).isFile() ? { gitDir, workTree: dir } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The job's checkout, or where it has none (the reusable workflow's merge and cleanup jobs check out only
 * crew, into `.git/crew-action`) an empty repository of crew's own at `scratch`: ls-remote and a leased
 * deletion's push need a repository to run in, not its files. No templates, so no hooks. The empty one is
 * made while the job goes on (`made`): its git commands wait for it.
 */
export function checkoutOrEmpty(workspace: string, scratch: string): { dir: string; checkedOut: boolean; pin?: GitPin } {
  // A `.git` file (a worktree's or a submodule's) is a checkout too, as before: crew runs git in the workspace.
  const gitPath = join(workspace, '.git');
  const pin = checkoutPin(workspace);
  if (pin) return { dir: workspace, checkedOut: true, pin };
  if (existsSync(gitPath) && !statSync(gitPath).isDirectory()) return { dir: workspace, checkedOut: true };
  mkdirSync(scratch, { recursive: true });
  return { dir: scratch, checkedOut: false, pin: { gitDir: join(scratch, '.git'), workTree: scratch, made: emptyRepository(scratch) } };
}

function emptyRepository(dir: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(ownGit(), ['init', '--quiet', '--template=', dir], (e, _out, stderr) =>
      e ? reject(new Error(`crew could not make an empty git repository in ${dir} (this job has no checkout): ${(stderr || e.message).trim()}`)) : resolve(),
    ),
  );
}
