/**
 * When crew repeats a GitHub request that failed, and how long it waits first. Pure, so
 * every branch is tested without a server.
 *
 * - A rate limit (403 or 429 that says so) means GitHub did not do the request: it is
 *   always safe to repeat. Wait for `retry-after`, else until `x-ratelimit-reset`, else 60 s.
 * - A 5xx or a dropped connection is ambiguous: the write may have landed. Only requests
 *   that are safe to repeat are retried here; a comment is made safe one level up
 *   (GitHubForge.postComment looks for its idempotency key before posting again).
 * - Anything else (400, 401, 403 without a rate limit, 404, 405, 409, 410, 422, 451) is
 *   GitHub's answer, not a fault: never repeated.
 */

export const MAX_RATE_LIMIT_RETRIES = 3;
export const MAX_SERVER_ERROR_RETRIES = 3;
/** Longer than this, crew stops and says so rather than hold a runner for most of an hour. */
export const MAX_WAIT_SECONDS = 15 * 60;
const FALLBACK_WAIT_SECONDS = 60;

export interface FailedRequest {
  method: string;
  /** The HTTP status; Octokit reports a connection that failed as 500 with no response. */
  status: number | undefined;
  /** Response headers, lower-case names; empty when there was no response. */
  headers: Record<string, string | undefined>;
  message: string;
  /** The caller marked this request as safe to repeat after an ambiguous failure. */
  idempotent?: boolean;
}

export type RateLimitKind = 'primary' | 'secondary';

export type RetryDecision = { retry: false; why?: string } | { retry: true; waitSeconds: number; kind: RateLimitKind | 'server-error' };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function rateLimitKind(f: FailedRequest): RateLimitKind | undefined {
  if (f.status !== 403 && f.status !== 429) return undefined;
  if (/\bsecondary rate\b|\babuse detection\b/i.test(f.message)) return 'secondary';
  if (f.headers['x-ratelimit-remaining'] === '0') return 'primary';
  // GitHub documents 429 for both limits, and a 403 with retry-after as a limit to wait out;
  // without a sign of which, treat it like the secondary one.
  return f.status === 429 || f.headers['retry-after'] !== undefined ? 'secondary' : undefined;
}

function seconds(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** `retry-after`, then (for the primary limit) the reset time plus a second, then 60 s. */
export function rateLimitWait(f: FailedRequest, nowMs: number): number {
  const after = seconds(f.headers['retry-after']);
  if (after !== undefined) return after;
  const reset = seconds(f.headers['x-ratelimit-reset']);
  if (f.headers['x-ratelimit-remaining'] === '0' && reset !== undefined) return Math.max(0, Math.ceil(reset - nowMs / 1000)) + 1;
  return FALLBACK_WAIT_SECONDS;
}

/** `retry` is how many times this request has been repeated already. */
export function decideRetry(f: FailedRequest, retry: number, nowMs: number): RetryDecision {
  const limited = rateLimitKind(f);
  if (limited) {
    if (retry >= MAX_RATE_LIMIT_RETRIES) return { retry: false, why: `GitHub still rate-limited crew after ${MAX_RATE_LIMIT_RETRIES} waits` };
    const wait = rateLimitWait(f, nowMs);
    if (wait > MAX_WAIT_SECONDS) return { retry: false, why: `GitHub's rate limit resets in ${Math.ceil(wait / 60)} minutes, longer than crew waits in a job` };
    return { retry: true, waitSeconds: wait, kind: limited };
  }
  if (f.status === undefined || f.status < 500) return { retry: false };
  if (!SAFE_METHODS.has(f.method.toUpperCase()) && !f.idempotent) return { retry: false, why: 'a write that may have landed is not repeated blindly' };
  if (retry >= MAX_SERVER_ERROR_RETRIES) return { retry: false, why: `GitHub kept failing after ${MAX_SERVER_ERROR_RETRIES + 1} tries` };
  const after = seconds(f.headers['retry-after']);
  return { retry: true, waitSeconds: Math.min(after ?? 2 ** retry, MAX_WAIT_SECONDS), kind: 'server-error' };
}

/** A 5xx or a connection that failed: the request may or may not have taken effect. */
export function isAmbiguousFailure(e: unknown): boolean {
  const status = typeof e === 'object' && e !== null && 'status' in e ? Number((e as { status: unknown }).status) : undefined;
  return status !== undefined && status >= 500;
}
