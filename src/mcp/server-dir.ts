import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log, Remote, WorkingCopy } from '../ports';

/** Where a task's stdio MCP servers start, and how to remove it once they are stopped. */
export interface ServerDir {
  /** The folder, or why there is none (the servers are then not started, and say so). */
  dir: string | { problem: string };
  dispose(): Promise<void>;
}

/**
 * A stdio server starts with its named secrets, so what it runs must be the repository's reviewed
 * code. A checkout that is exactly the reviewed commit is; any other (a resumed branch, merged
 * dependencies, a chained task's tree, a follow-up) holds a model's files, and a model-written
 * `package.json`, script or node_modules shim there would run with the secret. Those servers start
 * instead in a copy of the reviewed commit's tracked files, outside the workspace, which the tool
 * user (the agent's commands, and the server itself) may read but not change.
 */
export async function stdioServerDir(o: {
  trusted: boolean;
  repo: Pick<WorkingCopy, 'dir' | 'exportCommit'>;
  remote: Pick<Remote, 'fetchCommit'>;
  reviewedSha: string;
  /** A folder the tool user can reach (the job's temp, where the sandbox's home also lives). */
  tempDir: string;
  log: Pick<Log, 'info'>;
}): Promise<ServerDir> {
  if (o.trusted) return { dir: o.repo.dir, dispose: async () => undefined };
  let dir: string | undefined;
  const dispose = async () => void (dir && (await rm(dir, { recursive: true, force: true })));
  try {
    await o.remote.fetchCommit(o.reviewedSha);
    dir = await mkdtemp(join(o.tempDir, 'crew-mcp-reviewed-'));
    await o.repo.exportCommit(o.reviewedSha, dir);
    await chmod(dir, 0o755);
  } catch (e) {
    await dispose();
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 300);
    return {
      dir: { problem: `this checkout holds model-written files, and the copy of the reviewed commit it would start in could not be made (${why})` },
      dispose,
    };
  }
  o.log.info(
    `this checkout holds model-written files, so the stdio MCP servers start in a read-only copy of the reviewed commit ${o.reviewedSha.slice(0, 12)} (${dir}), not in the checkout`,
  );
  return { dir, dispose };
}
