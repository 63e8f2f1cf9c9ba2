import { redact } from '../text/redact';
import { sanitize } from '../text/sanitize';
import { codeSpan, fence } from '../text/markdown';

/**
 * A failed CI job's log, cut down to what a follow-up run needs: the end of the failed step's
 * output, without timestamps, colour codes or runner bookkeeping, with secrets redacted and
 * anything a reader of the rendered text would not see removed. The log is untrusted text (a
 * test can print anything, and the branch holds model-written code), so it is handled like an
 * issue body. Pure.
 */

/** How much of a log's end a follow-up run is given: enough for a stack trace and the test summary. */
export const LOG_TAIL_LINES = 80;
export const LOG_TAIL_CHARS = 6_000;

/** GitHub prefixes every job log line with an ISO-8601 timestamp and a space (`2026-11-27T10:00:01.1234567Z `). */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
/** ANSI escape sequences: colours (CSI … m), cursor moves and OSC titles. */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
/** The runner's own lines around steps: group markers and the cleanup that follows the failed step. */
const GROUP = /^##\[(?:group|endgroup)\]/;
/** The runner's line that ends a failed `run:` step (docs: workflow commands; the runner writes it as an error annotation). */
const STEP_FAILED = /^##\[error\]Process completed with exit code \d+\.?$/;
/** Where the runner's own post-job work starts: nothing after it is the step's output. */
const POST_JOB = /^(?:Post job cleanup\.|Cleaning up orphan processes)$/;

/** One log line as a person reads it in the Actions UI: no timestamp, no colours. */
export function cleanLogLine(line: string): string {
  return line.replace(TIMESTAMP, '').replace(ANSI, '').replace(/\r$/, '');
}

export interface LogTail {
  /** The kept lines, cleaned, redacted and sanitised. */
  text: string;
  /** Lines of the failed step's output left out before the kept ones. */
  omittedLines: number;
}

/**
 * The end of the failed step's output: the log up to the runner's "Process completed with exit
 * code" line (the last one; the whole log when there is none), without group markers and
 * post-job cleanup, then its last `maxLines` lines and at most `maxChars` characters.
 */
export function logTail(raw: string, maxLines = LOG_TAIL_LINES, maxChars = LOG_TAIL_CHARS): LogTail {
  let lines = raw.split('\n').map(cleanLogLine);
  while (lines.length && lines.at(-1)!.trim() === '') lines.pop();
  const failedAt = lines.findLastIndex((l) => STEP_FAILED.test(l));
  if (failedAt >= 0) lines = lines.slice(0, failedAt + 1);
  else {
    const post = lines.findIndex((l) => POST_JOB.test(l));
    if (post >= 0) lines = lines.slice(0, post);
  }
  lines = lines.filter((l) => !GROUP.test(l));
  const total = lines.length;
  let body = lines.slice(-maxLines).join('\n');
  // Characters, from the end: the first line kept may be cut at its start.
  if (body.length > maxChars) body = `…${body.slice(-(maxChars - 1))}`;
  const omittedLines = total - (body ? body.split('\n').length : 0);
  // Redacted before sanitising (sanitising could join the halves of a token split by an invisible
  // character), and sanitised inside a fence, where it keeps the text literal: a log's `<div>` or
  // `[x]: y` is output to read, not markup to drop, while comments, hidden elements and invisible
  // characters still go.
  const fenced = sanitize(fence(redact(body)), maxChars * 2).split('\n');
  const text = fenced.slice(1, -1).join('\n').trimEnd();
  return { text, omittedLines };
}

/** What crew knows about one failed job of a CI workflow run. */
export interface CiFailure {
  /** The CI workflow's name (`CI`) and its run's id and page. */
  workflow: string;
  runId: number;
  runUrl: string;
  /** The failed job's name as its check run shows it (`test`), its page, and the failed step when GitHub names one. */
  job: string;
  jobUrl: string;
  step: string | null;
  /** The commit the workflow ran on: the pull request's head it failed. */
  headSha: string;
  /** The end of the failed step's log; null when GitHub had no log to give (expired, or the job never started). */
  log: LogTail | null;
}

/** The done criterion a follow-up run adds: named after the failed check, which is what the pull request's checks list shows. */
export function ciCriterion(f: Pick<CiFailure, 'job' | 'workflow'>): string {
  return `the ${codeSpan(f.job)} check of the ${codeSpan(f.workflow)} workflow passes`;
}

/**
 * The feedback a follow-up run's intake reads: which check failed where, and the log tail in a
 * fence (sanitize keeps a fence's text literal). Names from the workflow file are shown as code,
 * so they format nothing.
 */
export function ciFeedback(f: CiFailure): string {
  const where = `${codeSpan(f.job)}${f.step ? `, step ${codeSpan(f.step)}` : ''}`;
  const lines = [`The ${codeSpan(f.workflow)} workflow failed on this pull request's head ${f.headSha.slice(0, 7)}: job ${where}.`, `Job log: ${f.jobUrl}`, ''];
  if (!f.log) lines.push('GitHub had no log for this job (it may have expired, or the job never started); look at the job page.');
  else {
    const cut = f.log.omittedLines ? ` (the last lines; ${f.log.omittedLines} earlier lines left out)` : '';
    lines.push(`The end of the failed step's output${cut}:`, '', fence(f.log.text));
  }
  lines.push('', `Fix the cause on this branch so that ${ciCriterion(f)}. Do not skip, delete or weaken the check or its tests.`);
  return lines.join('\n');
}
