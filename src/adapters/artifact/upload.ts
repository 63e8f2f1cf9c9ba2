import { DefaultArtifactClient } from '@actions/artifact';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Characters GitHub refuses in an artifact's name (the library's own check names them too). */
const NOT_IN_NAMES = /["':<>|*?\\/\r\n]/g;

/**
 * Whether the server has the artifact service @actions/artifact talks to: the library refuses any
 * server it takes for GitHub Enterprise Server, i.e. a host other than github.com, `*.ghe.com`
 * (GitHub Enterprise Cloud with data residency) and `*.localhost`.
 */
export function artifactsAvailable(serverUrl: string | undefined): boolean {
  const host = new URL(serverUrl || 'https://github.com').hostname.toLowerCase();
  return host === 'github.com' || host.endsWith('.ghe.com') || host.endsWith('.localhost');
}

export interface ArtifactTarget {
  /** Where the files are written before the upload: a folder of the runner's temp. */
  dir: string;
  /** `${server}/${owner}/${repo}/actions/runs/${runId}`: an artifact's page is this plus `/artifacts/<id>`. */
  runPage: string;
  retentionDays: number;
}

/**
 * Uploads files as one workflow artifact through GitHub's own client (@actions/artifact: the
 * results service's Twirp API and the blob storage its signed URL points at, with the runtime
 * token the runner gives a node action). Returns the artifact's page.
 */
export async function uploadArtifact(target: ArtifactTarget, name: string, files: Array<{ name: string; text: string }>): Promise<string> {
  const clean = name.replace(NOT_IN_NAMES, '-');
  const dir = join(target.dir, clean);
  await mkdir(dir, { recursive: true });
  const paths = await Promise.all(
    files.map(async (f) => {
      const path = join(dir, f.name.replace(NOT_IN_NAMES, '-'));
      await writeFile(path, f.text);
      return path;
    }),
  );
  const { id } = await new DefaultArtifactClient().uploadArtifact(clean, paths, dir, { retentionDays: target.retentionDays });
  if (id === undefined) throw new Error(`GitHub gave no id for the artifact ${clean}`);
  return `${target.runPage}/artifacts/${id}`;
}
