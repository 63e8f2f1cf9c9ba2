import YAML from 'yaml';

/**
 * endless8's memory of earlier attempts: a worker starts with the summaries of the most
 * recent attempts at its task, and every failed one however old, so a failed approach is
 * not tried again.
 */

export interface PastAttempt {
  attempt: number;
  status: string;
  summary: string;
  /** Why it did not count as a clean success; null when it did. */
  reason: string | null;
}

export function failed(a: PastAttempt): boolean {
  return a.status !== 'success' || a.reason !== null;
}

export function attemptLine(a: PastAttempt): string {
  return `Attempt ${a.attempt} (${a.status}): ${a.summary}${a.reason && a.reason !== a.summary ? ` — ${a.reason}` : ''}`;
}

/** The `recent` latest attempts plus every failure, oldest first. `recent` 0 keeps only the failures. */
export function recallAttempts(history: PastAttempt[], recent: number): string[] {
  const from = history.length - Math.max(0, recent);
  return [...history]
    .sort((a, b) => a.attempt - b.attempt)
    .filter((a, i) => i >= from || failed(a))
    .map(attemptLine);
}

/** Why the latest attempt failed, for the line the next attempt reads first; null after a clean success. */
export function lastFailure(history: PastAttempt[]): string | null {
  const last = [...history].sort((a, b) => a.attempt - b.attempt).at(-1);
  return last && failed(last) ? (last.reason ?? `it ended ${last.status}`) : null;
}

/** An attempt back from its result file's front matter (results/attempts/result_<id>_a<n>.md). */
export function parseAttemptResult(text: string): PastAttempt | undefined {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) return undefined;
  let front: Record<string, unknown>;
  try {
    front = (YAML.parse(m[1]!) ?? {}) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof front.attempt !== 'number' || typeof front.status !== 'string') return undefined;
  return {
    attempt: front.attempt,
    status: front.status,
    summary: typeof front.summary === 'string' ? front.summary : '(no summary recorded)',
    reason: typeof front.reason === 'string' ? front.reason : null,
  };
}
