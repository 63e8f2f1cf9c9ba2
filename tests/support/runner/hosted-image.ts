/**
 * What a GitHub-hosted image puts in every process's environment before the runner adds its own: actions/runner-images
 * images/ubuntu/scripts/build/configure-environment.sh writes `ImageVersion=$IMAGE_VERSION` and `ImageOS=$IMAGE_OS`
 * to /etc/environment (the Ubuntu templates set IMAGE_OS to `ubuntu<major>`: ubuntu22, ubuntu24). They are the
 * machine's variables, not the runner's: a step's `env:` or GITHUB_ENV may write over them, and they are not in the
 * `env` context. Actions key caches by ImageOS (actions/setup-go's src/cache-restore.ts, setup-python's).
 * `ubuntu-latest` is the Ubuntu 24.04 image (docs "GitHub-hosted runners", "Standard GitHub-hosted runners for
 * public repositories"); a label that names no hosted image (self-hosted, a larger runner's own name) gets neither.
 */

/** The image release the fake plays, in runner-images' form (`<yyyymmdd>.<build>.<n>`, as its releases are tagged). */
export const FAKE_IMAGE_VERSION = '20260105.1.0';

const LATEST: Record<string, string> = { 'ubuntu-latest': 'ubuntu-24.04' };

/** The image's variables for a job's `runs-on` (a label, or a list of labels), none for a runner no hosted image backs. */
export function hostedImageEnv(runsOn: unknown): Record<string, string> {
  const labels = (Array.isArray(runsOn) ? runsOn : [runsOn]).filter((l): l is string => typeof l === 'string');
  if (labels.includes('self-hosted')) return {};
  for (const label of labels) {
    const m = /^ubuntu-(\d+)\.04(?:-arm)?$/.exec(LATEST[label] ?? label);
    if (m) return { ImageOS: `ubuntu${m[1]}`, ImageVersion: FAKE_IMAGE_VERSION };
  }
  return {};
}
