import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jobTimeScale } from '../../clock';

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
  /** How long an upload may take before crew gives up on it; UPLOAD_DEADLINE_MS unless a test says otherwise. */
  deadlineMs?: number;
}

/**
 * How long one artifact upload may take: past the library's own limits (its blob upload stops
 * after 5 minutes without progress, its Twirp calls retry 5 times over about 25 s), since its
 * Twirp calls have no timeout of their own and a service that never answers would hold the job
 * until `timeout-minutes`. Scaled like the job's time limits, which it sits inside.
 */
export const UPLOAD_DEADLINE_MS = 10 * 60_000;

let abandoned = 0;
/** Uploads given up on while still open: their sockets keep the process alive, so the job's end exits it. */
export function abandonedUploads(): number {
  return abandoned;
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
  const deadline = target.deadlineMs ?? UPLOAD_DEADLINE_MS * jobTimeScale();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandoned++;
      reject(
        new Error(
          `the artifact service did not finish the upload of ${clean} within ${deadline < 60_000 ? `${(deadline / 1000).toFixed(1)} s` : `${Math.round(deadline / 60_000)} minutes`}; crew gave up on it`,
        ),
      );
    }, deadline);
  });
  // Loaded on the first upload, so a job that keeps no artifact does not parse the library (docs/PERFORMANCE.md, cold start).
  const upload = import('@actions/artifact').then(({ DefaultArtifactClient }) =>
    new DefaultArtifactClient().uploadArtifact(clean, paths, dir, { retentionDays: target.retentionDays }),
  );
  const { id } = await Promise.race([upload, late]).finally(() => clearTimeout(timer));
  if (id === undefined) throw new Error(`GitHub gave no id for the artifact ${clean}`);
  return `${target.runPage}/artifacts/${id}`;
}
