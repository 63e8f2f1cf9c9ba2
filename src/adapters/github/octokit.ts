import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck/light.js';
import { systemClock, timeScale } from '../../clock';
import type { Clock, Log, RateLimitWait } from '../../ports';
import { httpFetch } from './http-fetch';
import { proxyFetch } from './proxy';
import { decideRetry, type FailedRequest } from './request-policy';

// @octokit/core with pagination and throttling, not @octokit/rest: its method table (every REST endpoint, ~100 KB)
// is evaluated by every job at start, and crew calls a few dozen routes, each by `request('VERB /route', …)`.
const CrewOctokit = Octokit.plugin(paginateRest, throttling);

export type GitHubClient = InstanceType<typeof CrewOctokit>;

export interface ClientOptions {
  clock?: Clock;
  /** Told about every wait a rate limit imposed, for the job summary and the plan comment. */
  onRateLimit?: (wait: RateLimitWait) => void;
}

interface RequestOptions {
  method: string;
  url: string;
  request?: { idempotent?: boolean };
  [key: string]: unknown;
}

function failureOf(e: unknown, options: RequestOptions): FailedRequest {
  const err = e as { status?: unknown; message?: unknown; response?: { headers?: Record<string, unknown> } };
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(err.response?.headers ?? {})) headers[k.toLowerCase()] = v === undefined || v === null ? undefined : String(v);
  return {
    method: options.method,
    status: typeof err.status === 'number' ? err.status : undefined,
    headers,
    message: String(err.message ?? e),
    idempotent: options.request?.idempotent === true,
  };
}

/**
 * Octokit with GitHub's recommended spacing of writes (the throttling plugin's queues)
 * and crew's own retry policy (request-policy.ts) in place of the retry plugin, which
 * repeats a POST whose answer was lost and so duplicates comments, and which does not
 * honour `retry-after` on a 429. Every wait follows the time scale.
 */
export function createClient(token: string, log: Log, opts: ClientOptions = {}): GitHubClient {
  const scale = timeScale();
  const clock = opts.clock ?? systemClock;
  const ms = (n: number) => Math.max(1, Math.round(n * scale));
  const tag = orchestrationTag();
  const octokit = new CrewOctokit({
    auth: token,
    // GitHub Enterprise Server's API, when the job runs there; GraphQL follows it (`/api/v3` becomes `/api/graphql`).
    baseUrl: process.env.GITHUB_API_URL || 'https://api.github.com',
    // What @actions/github added to the user agent, so GitHub can tell which job made a request.
    ...(tag ? { userAgent: tag } : {}),
    // node:http(s), or a runner's proxy (proxy.ts): not Node's fetch, whose first call compiles undici (http-fetch.ts).
    request: { fetch: proxyFetch(process.env, httpFetch as unknown as typeof fetch) },
    // No request log (@octokit/rest's plugin-request-log printed each failed request, a 404 crew expects too, past
    // inertLog): crew's retry policy below says what failed and why. Octokit's warnings (a deprecated route) go to crew's Log.
    log: { debug: () => {}, info: () => {}, warn: (m: string) => log.warn(`GitHub: ${m}`), error: () => {} },
    throttle: {
      // GitHub asks integrations to space content-creating requests; notifications more so.
      write: new Bottleneck.Group({ id: 'crew-write', maxConcurrent: 1, minTime: ms(1000) }),
      notifications: new Bottleneck.Group({ id: 'crew-notifications', maxConcurrent: 1, minTime: ms(3000) }),
      // Rate limits are retried below, with the rest of the policy.
      onRateLimit: () => false,
      onSecondaryRateLimit: () => false,
    },
  });
  octokit.hook.wrap('request', async (request, options) => {
    const o = options as unknown as RequestOptions;
    for (let retry = 0; ; retry++) {
      try {
        return await request(options);
      } catch (e) {
        const failed = failureOf(e, o);
        const decision = decideRetry(failed, retry, clock.now().getTime());
        const what = `${o.method} ${o.url}`;
        if (!decision.retry) {
          if (decision.why) log.warn(`GitHub: ${what} failed (${failed.status ?? 'no answer'}): ${decision.why}.`);
          throw e;
        }
        if (decision.kind === 'server-error') {
          log.warn(
            `GitHub answered ${what} with ${failed.status} (${failed.message.split('\n')[0]}); retrying in ${decision.waitSeconds}s (retry ${retry + 1}).`,
          );
        } else {
          log.warn(
            `GitHub ${decision.kind === 'primary' ? 'rate limit' : 'secondary rate limit'} on ${what}; crew waits ${decision.waitSeconds}s and tries again (retry ${retry + 1}).`,
          );
          opts.onRateLimit?.({ at: clock.now().toISOString(), seconds: decision.waitSeconds, kind: decision.kind, request: what });
        }
        await clock.sleep(decision.waitSeconds * 1000);
      }
    }
  });
  return octokit;
}

/** `actions_orchestration_id/<id>` from the runner's ACTIONS_ORCHESTRATION_ID, as @actions/github's user agent carried it. */
function orchestrationTag(): string | undefined {
  const id = process.env.ACTIONS_ORCHESTRATION_ID?.trim();
  return id ? `actions_orchestration_id/${id.replace(/[^a-z0-9_.-]/gi, '_')}` : undefined;
}
