import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';
import { timeScale } from '../../clock';
import type { Log } from '../../ports';

export type GitHubClient = ReturnType<typeof getOctokit>;

const MAX_RATE_LIMIT_RETRIES = 3;

/**
 * Octokit with GitHub's recommended throttling and retries. Every wait the plugins
 * make (retry-after, reset times, gaps between writes) is multiplied by the time
 * scale, so tests exercise the same paths quickly.
 */
export function createClient(token: string, log: Log): GitHubClient {
  const scale = timeScale();
  const ms = (n: number) => Math.max(1, Math.round(n * scale));
  return getOctokit(
    token,
    {
      // Read now, not when @actions/github was first imported.
      baseUrl: process.env.GITHUB_API_URL ?? 'https://api.github.com',
      // The plugin's default list plus 405 and 409: a refused or conflicting write (a merge
      // GitHub will not do, a head that moved) is an answer, not a fault to repeat.
      retry: { retryAfterBaseValue: ms(1000), doNotRetry: [400, 401, 403, 404, 405, 409, 410, 422, 451] },
      throttle: {
        retryAfterBaseValue: ms(1000),
        // GitHub asks integrations to space content-creating requests; notifications more so.
        write: new Bottleneck.Group({ id: 'crew-write', maxConcurrent: 1, minTime: ms(1000) }),
        notifications: new Bottleneck.Group({ id: 'crew-notifications', maxConcurrent: 1, minTime: ms(3000) }),
        onRateLimit: (retryAfter: number, options: { method: string; url: string }, _o: unknown, retryCount: number) => {
          log.warn(`GitHub rate limit reached on ${options.method} ${options.url}; waiting ${retryAfter}s (try ${retryCount + 1} of ${MAX_RATE_LIMIT_RETRIES}).`);
          return retryCount < MAX_RATE_LIMIT_RETRIES;
        },
        onSecondaryRateLimit: (retryAfter: number, options: { method: string; url: string }, _o: unknown, retryCount: number) => {
          log.warn(`GitHub secondary rate limit on ${options.method} ${options.url}; waiting ${retryAfter}s (try ${retryCount + 1} of ${MAX_RATE_LIMIT_RETRIES}).`);
          return retryCount < MAX_RATE_LIMIT_RETRIES;
        },
      },
    },
    retry,
    throttling,
  );
}
