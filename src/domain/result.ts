import YAML from 'yaml';
import type { ImpedimentCategory } from './leader-policy';
import type { Persona } from './plan';
import type { TaskStatus, Usage } from './run-state';

/**
 * A worker's result: what the model reported through report_result, checked with
 * claude-crew's metadata rules, then composed by crew into results/result_<id>.md.
 * The rules apply to what the model said, before crew adds anything, so they can fail.
 */

export type Quality = 'GREEN' | 'YELLOW' | 'RED';

/** The leader ADR's three kinds of worker feedback. */
export type Feedback =
  | { type: 'implementation'; result: string; changes: string[] }
  | { type: 'exploration'; findings: string[]; recommendations: string[]; confidence: number }
  | { type: 'difficulty'; issue: string; attempts: string[]; impediment: { category: ImpedimentCategory; requestedAction: string }; conflicting?: string[] };

export interface Reported {
  status?: 'success' | 'partial' | 'failure';
  quality?: Quality;
  completeness?: number;
  summary?: string;
  details?: string;
  feedback?: Feedback;
}

/** How the worker's loop ended, as crew saw it. */
export type Ending = 'reported' | 'no_report' | 'max_turns' | 'budget' | 'wall_clock' | 'shutdown' | 'error' | 'loop';

export interface Observed {
  persona: Persona;
  ending: Ending;
  changedFiles: string[];
  turns: number;
  usage: Usage;
  toolCalls: Record<string, number>;
  /** Changes to protected paths (made with run_command) that crew undid before committing. */
  reverted?: string[];
  /** Wall-clock milliseconds the attempt took. */
  elapsedMs?: number;
  /** With ending 'error': what stopped the attempt outside its tools (the model API, compaction, the inbox); with 'loop', the repeated call. */
  error?: string;
  /** The limit the attempt reached before it reported in its last turn (#49): its report stands, with this said. */
  limit?: 'max_turns' | 'budget';
  /** With ending 'shutdown': the run stopped at a budget (#52), not aborted, so the result says so. */
  stoppedBy?: 'budget';
}

export interface CheckedResult {
  status: Exclude<TaskStatus, 'pending' | 'running' | 'retrying' | 'blocked'>;
  quality: Quality;
  completeness: number;
  summary: string;
  details: string;
  feedback: Feedback | null;
  metadataIssues: string[];
  /** True when the rules ask for another attempt (if any are left). */
  retry: boolean;
  /** Why the result is not a clean success; shown to the next attempt and to people. */
  reason: string | null;
  complete: boolean;
}

export const MIN_REPORT_LINES = 20;

/** How many times a worker is asked to fix a report that breaks only the report rules, in the same conversation. */
export const REPORT_REASKS = 2;

/**
 * What is wrong with the report itself, as opposed to the work: missing metadata, or too few
 * lines. The worker is told in the same conversation and can fix it in one more turn; a new
 * attempt is for work that failed (#17 §5).
 */
export function reportProblems(r: Reported, commandsRun?: number): string[] {
  const out: string[] = [];
  if (!r.status) out.push('status is missing: say success, partial or failure');
  if (!r.quality) out.push('quality is missing: say GREEN, YELLOW or RED');
  if (r.completeness === undefined || !Number.isFinite(r.completeness)) out.push('completeness is missing: a number from 0 to 100');
  const lines = reportBody(r).split('\n').length;
  if (lines < MIN_REPORT_LINES)
    out.push(
      `the report has ${lines} lines; at least ${MIN_REPORT_LINES} are expected: what changed and where, why, how you checked it (the commands you ran and what they printed), what is not done, and the risks`,
    );
  const claims = commandsRun === 0 && r.status === 'success' ? unbackedClaims(reportBody(r)) : [];
  if (claims.length)
    out.push(
      `the report claims checks it has no evidence for (${claims.map((c) => `"${c}"`).join(', ')}), but you ran no command in this attempt: run the check with run_command and report what it printed, or say plainly that you did not run it`,
    );
  return out;
}

/**
 * Sentences where a report says a check passed: "the tests pass", "`npm test` exits 0",
 * "I ran `make`". A worker that ran no command cannot know that, so the claim goes back to it
 * (#17 §5). Wishes and conditions ("make sure the tests pass", "did not run") are not claims.
 * English only: reports in other languages are not checked for this rule.
 */
const CLAIMS = [
  /\b(?:tests?|specs?|checks?|builds?|lint(?:er|ing)?|(?:test )?suites?|type-?checks?|compil(?:es|ation))\s+(?:now\s+|still\s+|all\s+)?(?:pass(?:es|ed)?|succeed(?:s|ed)?|(?:is|are)\s+(?:green|passing|clean))\b/i,
  /`[^`\n]+`\s+(?:now\s+|still\s+)?(?:pass(?:es|ed)?|succeed(?:s|ed)?|exit(?:s|ed)?\s+(?:with\s+)?(?:code\s+|status\s+)?0)\b/i,
  /\b(?:I|we)\s+(?:have\s+)?(?:ran|run)\s+`[^`\n]+`/i,
];
const NOT_A_CLAIM = /(?:\b(?:not|never|could|should|would|will|must|make sure|ensure|until|unless|if|whether|so that|once|when)\b|n't\b)[^.!?\n]*$/i;

export function unbackedClaims(body: string): string[] {
  const found: string[] = [];
  for (const sentence of body.split(/(?<=[.!?])\s+|\n+/)) {
    for (const re of CLAIMS) {
      const m = re.exec(sentence);
      if (!m || NOT_A_CLAIM.test(sentence.slice(Math.max(0, m.index - 40), m.index))) continue;
      found.push(m[0].trim());
      break;
    }
  }
  return [...new Set(found)].slice(0, 3);
}

/** The text the model reported, as it will appear in the result body. */
export function reportBody(r: Reported): string {
  const parts = [r.summary?.trim() ?? '', r.details?.trim() ?? ''];
  const f = r.feedback;
  if (f?.type === 'implementation') parts.push(`## Implementation\n${f.result}\n${f.changes.map((c) => `- ${c}`).join('\n')}`);
  if (f?.type === 'exploration')
    parts.push(
      `## Findings\n${f.findings.map((x) => `- ${x}`).join('\n')}\n\n## Recommendations\n${f.recommendations.map((x) => `- ${x}`).join('\n')}\n\nConfidence: ${f.confidence}`,
    );
  if (f?.type === 'difficulty')
    parts.push(
      `## Difficulty\n${f.issue}\n\nTried:\n${f.attempts.map((x) => `- ${x}`).join('\n')}\n\nImpediment (${f.impediment.category}): ${f.impediment.requestedAction}`,
    );
  return parts.filter(Boolean).join('\n\n');
}

const ENDINGS: Record<Exclude<Ending, 'reported'>, { status: CheckedResult['status']; retry: boolean; reason: string }> = {
  no_report: { status: 'failure', retry: true, reason: 'the worker stopped without reporting (no completion marker)' },
  max_turns: { status: 'timeout', retry: true, reason: 'the worker reached its turn limit' },
  // task_timeout_minutes covers all the task's attempts, so a retry would have no time left.
  wall_clock: { status: 'timeout', retry: false, reason: 'the task ran out of time (task_timeout_minutes, across its attempts)' },
  // The attempt's own budget: a retry starts a new one, while the task's and the run's have room (the work step checks).
  budget: { status: 'failure', retry: true, reason: "the worker spent the attempt's budget" },
  loop: { status: 'failure', retry: true, reason: 'the attempt was stopped going round in circles' },
  shutdown: { status: 'partial', retry: false, reason: 'the run was aborted; the worker stopped at the end of a turn' },
  error: { status: 'failure', retry: true, reason: 'the attempt stopped on an error' },
};

export function checkResult(reported: Reported | undefined, seen: Observed): CheckedResult {
  const checked = checkReport(reported, seen);
  if (!seen.reverted?.length) return checked;
  const list = seen.reverted.join(', ');
  const note = `crew undid the changes to protected paths (${list}): agents may not change them, with any tool`;
  return {
    ...checked,
    metadataIssues: [...checked.metadataIssues, `changes to protected paths were reverted: ${list}`],
    reason: checked.reason ? `${checked.reason}; ${note}` : note,
  };
}

/** How much of a report crew keeps: enough for any honest report, and small enough to travel in a commit message. */
export const REPORT_LIMITS = { summary: 2_000, details: 40_000, item: 2_000, items: 50 } as const;

function cut(text: string, max: number, what: string, notes: string[]): string {
  if (text.length <= max) return text;
  notes.push(`${what} cut to ${max.toLocaleString('en-US')} characters (the worker wrote ${text.length.toLocaleString('en-US')})`);
  return `${text.slice(0, max)}\n\n[cut: the ${what} had ${text.length.toLocaleString('en-US')} characters; the first ${max.toLocaleString('en-US')} are kept]`;
}

/** A model can reply with anything, of any size; what crew keeps of a report is bounded, and says where it was cut. */
export function boundReport(r: Reported): { reported: Reported; notes: string[] } {
  const notes: string[] = [];
  const item = (x: unknown) => cut(String(x ?? ''), REPORT_LIMITS.item, 'feedback item', notes);
  const list = (xs: unknown) => {
    const all = Array.isArray(xs) ? xs : [];
    if (all.length > REPORT_LIMITS.items) notes.push(`feedback list cut to ${REPORT_LIMITS.items} items (the worker gave ${all.length})`);
    return all.slice(0, REPORT_LIMITS.items).map(item);
  };
  const f = r.feedback;
  const feedback: Feedback | undefined =
    f?.type === 'implementation'
      ? { type: 'implementation', result: item(f.result), changes: list(f.changes) }
      : f?.type === 'exploration'
        ? { type: 'exploration', findings: list(f.findings), recommendations: list(f.recommendations), confidence: f.confidence }
        : f?.type === 'difficulty'
          ? {
              type: 'difficulty',
              issue: item(f.issue),
              attempts: list(f.attempts),
              impediment: { category: f.impediment?.category, requestedAction: item(f.impediment?.requestedAction) },
              ...(f.conflicting ? { conflicting: list(f.conflicting) } : {}),
            }
          : f;
  return {
    reported: {
      ...r,
      ...(r.summary !== undefined ? { summary: cut(String(r.summary), REPORT_LIMITS.summary, 'summary', notes) } : {}),
      ...(r.details !== undefined ? { details: cut(String(r.details), REPORT_LIMITS.details, 'details', notes) } : {}),
      ...(feedback ? { feedback } : {}),
    },
    notes,
  };
}

function checkReport(given: Reported | undefined, seen: Observed): CheckedResult {
  const bounded = given && boundReport(given);
  const reported = bounded?.reported;
  const issues: string[] = [...(bounded?.notes ?? [])];
  if (seen.ending !== 'reported' || !reported) {
    const e = ENDINGS[seen.ending === 'reported' ? 'no_report' : seen.ending];
    const reason =
      seen.ending === 'shutdown' && seen.stoppedBy === 'budget'
        ? 'the run stopped at a budget; the worker stopped at the end of a turn'
        : (seen.ending === 'error' || seen.ending === 'loop') && seen.error
          ? `${e.reason}: ${seen.error}`
          : e.reason;
    issues.push(`${reason}; completion marker missing`);
    return {
      status: e.status,
      quality: 'RED',
      completeness: 0,
      summary: reason,
      details: '',
      feedback: null,
      metadataIssues: issues,
      retry: e.retry,
      reason,
      complete: false,
    };
  }
  let status = reported.status;
  if (!status) {
    issues.push('status missing, treated as failure');
    status = 'failure';
  }
  let quality = reported.quality;
  if (!quality) {
    issues.push('quality missing, defaulted to YELLOW');
    quality = 'YELLOW';
  }
  let completeness = reported.completeness;
  if (completeness === undefined || !Number.isFinite(completeness)) {
    issues.push('completeness missing, defaulted to 0');
    completeness = 0;
  }
  completeness = Math.max(0, Math.min(100, Math.round(completeness)));
  const body = reportBody(reported);
  const lines = body.split('\n').length;
  let retry = status !== 'success';
  let reason: string | null = status === 'success' ? null : `the worker reported ${status}: ${reported.summary?.trim() || 'no summary'}`;
  if (seen.limit) {
    const limit = seen.limit === 'budget' ? "spent the attempt's budget" : 'reached its turn limit';
    issues.push(`the worker ${limit} and reported in its last turn`);
    if (reason) reason = `${reason} (it ${limit} and reported in its last turn)`;
  }
  if (lines < MIN_REPORT_LINES) {
    issues.push(`report has ${lines} lines (under ${MIN_REPORT_LINES}); quality set to RED`);
    quality = 'RED';
    retry = true;
    reason ??= `the report was too thin (${lines} lines; at least ${MIN_REPORT_LINES} are expected)`;
  }
  if (seen.persona === 'coder' && seen.changedFiles.length === 0) {
    issues.push('coder task changed no files; treated as failure');
    status = 'failure';
    retry = true;
    reason = 'the coder task changed no files';
  }
  const claims = status === 'success' && !seen.toolCalls.run_command ? unbackedClaims(body) : [];
  if (claims.length) {
    // The worker was asked to back or drop these claims and did not: the report is not trusted.
    issues.push(`success claimed without evidence: the report says ${claims.map((c) => `"${c}"`).join(', ')}, but the worker ran no command`);
    quality = 'RED';
    retry = true;
    reason ??= `the report claims checks the worker never ran (${claims.join(', ')})`;
  }
  if (seen.persona === 'researcher' && !/^## Sources/m.test(body)) issues.push('Sources section missing');
  if (seen.persona === 'coder' && !body.includes('```')) issues.push('code block missing');
  return {
    status,
    quality,
    completeness,
    summary: reported.summary?.trim() || '(no summary)',
    details: reported.details?.trim() ?? '',
    feedback: reported.feedback ?? null,
    metadataIssues: issues,
    retry,
    reason,
    complete: true,
  };
}

/** results/result_<id>.md: front matter crew composed, the worker's text, and the marker if it reported. */
export function resultFile(taskId: string, attempt: number, r: CheckedResult, seen: Observed, headSha: string): string {
  const front = {
    task: taskId,
    attempt,
    status: r.status,
    quality: r.quality,
    completeness: r.completeness,
    summary: r.summary,
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.feedback ? { feedback: r.feedback } : {}),
    changed_files: seen.changedFiles,
    turns: seen.turns,
    ...(seen.elapsedMs !== undefined ? { elapsed_seconds: Math.round(seen.elapsedMs / 1000) } : {}),
    tokens: {
      input: seen.usage.inputTokens,
      output: seen.usage.outputTokens,
      cache_read: seen.usage.cacheReadTokens,
      cache_write: seen.usage.cacheWriteTokens,
    },
    cost_usd: seen.usage.costUsd,
    tools_used: seen.toolCalls,
    head: headSha,
    metadata_issues: r.metadataIssues,
  };
  const body = r.complete ? reportBody({ summary: r.summary, details: r.details, ...(r.feedback ? { feedback: r.feedback } : {}) }) : r.summary;
  return ['---', YAML.stringify(front).trimEnd(), '---', '', `# Result of ${taskId}`, '', body, '', ...(r.complete ? ['<!-- COMPLETE -->'] : []), ''].join(
    '\n',
  );
}

/** The limit an attempt reached, if any (#49): the one it reported after, or the one that ended it. */
export function limitOf(seen: Observed): 'max_turns' | 'budget' | 'loop' | undefined {
  if (seen.limit) return seen.limit;
  return seen.ending === 'max_turns' || seen.ending === 'budget' || seen.ending === 'loop' ? seen.ending : undefined;
}

/** What a task record keeps of the limit its latest attempt reached (null: none). */
export function limitRecord(attempt: number, seen: Observed) {
  const limit = limitOf(seen);
  return limit ? { limit, attempt, turns: seen.turns, reported: seen.ending === 'reported', files: seen.changedFiles.length } : null;
}
