import YAML from 'yaml';
import type { z } from 'zod';
import { PlanSchema, type Plan, type PlanTask } from '../domain/plan';
import { runFolder, STATE_BRANCH } from '../domain/refs';
import { parseAttemptResult, type PastAttempt } from '../domain/attempt-memory';
import { RunRecordSchema, TaskRecordSchema, type PhaseRole, type RunRecord, type RunView, type TaskRecord } from '../domain/run-state';
import type { Stored } from '../domain/stored-shape';
import { JobTimeSchema, type JobTime } from '../domain/actions-minutes';
import type { StateSnapshot, StateTx } from '../ports';
import { show, valueAt } from '../text/quote-value';

/**
 * The run's files on the state branch, in claude-crew's layout:
 * issue-<N>/run-<k>/{run.json, request.md, plan.json, plan.md, tasks/, results/, execution_log.yaml, report.md}.
 * What parallel jobs write lives in per-task files; execution_log.yaml is regenerated
 * from them on every write, so workers never contend for one file.
 */

type Reader = Pick<StateSnapshot, 'read' | 'list'>;

export const paths = {
  issue: (issue: number) => `issue-${issue}/`,
  run: (issue: number, run: number) => `${runFolder(issue, run)}/run.json`,
  request: (issue: number, run: number) => `${runFolder(issue, run)}/request.md`,
  requestJson: (issue: number, run: number) => `${runFolder(issue, run)}/request.json`,
  intake: (issue: number, run: number) => `${runFolder(issue, run)}/intake.json`,
  /** A follow-up run's feedback, review threads and earlier criteria, sanitised (domain/follow-up.ts). */
  followUp: (issue: number, run: number) => `${runFolder(issue, run)}/followup.json`,
  answers: (issue: number, run: number) => `${runFolder(issue, run)}/answers.md`,
  review: (issue: number, run: number) => `${runFolder(issue, run)}/review.md`,
  planJson: (issue: number, run: number) => `${runFolder(issue, run)}/plan.json`,
  planMd: (issue: number, run: number) => `${runFolder(issue, run)}/plan.md`,
  taskMd: (issue: number, run: number, id: string) => `${runFolder(issue, run)}/tasks/task_${id}.md`,
  taskJson: (issue: number, run: number, id: string) => `${runFolder(issue, run)}/tasks/task_${id}.json`,
  result: (issue: number, run: number, id: string) => `${runFolder(issue, run)}/results/result_${id}.md`,
  attemptResult: (issue: number, run: number, id: string, attempt: number) => `${runFolder(issue, run)}/results/attempts/result_${id}_a${attempt}.md`,
  log: (issue: number, run: number) => `${runFolder(issue, run)}/execution_log.yaml`,
  report: (issue: number, run: number) => `${runFolder(issue, run)}/report.md`,
  reportSummary: (issue: number, run: number) => `${runFolder(issue, run)}/report_summary.md`,
  judgment: (issue: number, run: number, iteration: number) => `${runFolder(issue, run)}/judgments/judgment_${iteration}.json`,
  /** A command criterion run once on the run's base, kept for the run (#32, domain/test-results/base-run.ts). */
  baseTests: (issue: number, run: number, criterion: string) => `${runFolder(issue, run)}/test-results/base_${criterion.replace(/[^A-Za-z0-9_-]/g, '_')}.json`,
  integration: (issue: number, run: number) => `${runFolder(issue, run)}/integration.md`,
  retrospective: (issue: number, run: number) => `${runFolder(issue, run)}/retrospective.md`,
  retrospectiveJson: (issue: number, run: number) => `${runFolder(issue, run)}/retrospective.json`,
  /** One file per job that wrote the run's state: its start and its last write (state/job-times.ts). */
  jobs: (issue: number, run: number) => `${runFolder(issue, run)}/jobs/`,
  job: (issue: number, run: number, id: string) => `${runFolder(issue, run)}/jobs/job_${id}.json`,
  /** What stays of a run whose folder was pruned (domain/retention.ts, state/run-digests.ts). */
  digest: (issue: number, run: number) => `${runFolder(issue, run)}/digest.json`,
};

/** A file on the state branch that crew cannot read. Nothing is written over it: every write first reads. */
export class StateFormatError extends Error {
  readonly next: string;
  constructor(
    readonly path: string,
    readonly field: string | null,
    detail: string,
  ) {
    super(`${STATE_BRANCH}: ${path} is not valid: ${field ? `field \`${field}\` ${detail}` : detail}.`);
    this.next = `crew has not written over it. Restore the file from the history of the ${STATE_BRANCH} branch (\`git log -p origin/${STATE_BRANCH} -- ${path}\` shows every version) or correct the field, then comment your command again.`;
  }
}

function jsonSyntaxError(text: string, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const at = /at position (\d+)/.exec(message);
  if (at) {
    const before = text.slice(0, Number(at[1]));
    const line = before.split('\n').length;
    return `it is not valid JSON (line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
  }
  // Node quotes the whole text in its message; the reason is enough.
  return `it is not valid JSON (${message
    .replace(/,\s*"[\s\S]*" is not valid JSON$/, '')
    .split('\n')[0]!
    .slice(0, 120)})`;
}

/** Reads a JSON file from the state as it is, unchecked (files crew writes whole, such as request.json and judgments). */
export function parseJson<T>(r: Reader, path: string): T | undefined {
  const text = r.read(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new StateFormatError(path, null, jsonSyntaxError(text, e));
  }
}

/**
 * Reads a JSON file from the state through its schema: a value of the wrong shape is refused
 * with the field named, and fields it lacks that the schema defaults are filled in.
 */
export function readChecked<S extends z.ZodType>(r: Reader, path: string, schema: S): Stored<S> | undefined {
  const value = parseJson<unknown>(r, path);
  if (value === undefined) return undefined;
  const checked = schema.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new StateFormatError(
      path,
      issue.path.join('.') || null,
      `${issue.message.replace(/^Invalid (input|option): /, '')} (got ${show(valueAt(value, issue.path))})`,
    );
  }
  return checked.data as Stored<S>;
}

/** How every state file of JSON is written. */
export const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Run numbers that exist for an issue, ascending. */
export function runNumbers(r: Reader, issue: number): number[] {
  const nums = new Set<number>();
  for (const p of r.list(paths.issue(issue))) {
    const m = /^issue-\d+\/run-(\d+)\//.exec(p);
    if (m) nums.add(Number(m[1]));
  }
  return [...nums].sort((a, b) => a - b);
}

export function readRun(r: Reader, issue: number, run: number): RunRecord | undefined {
  return readChecked(r, paths.run(issue, run), RunRecordSchema);
}

export function readView(r: Reader, issue: number, run: number): RunView | undefined {
  const record = readRun(r, issue, run);
  if (!record) return undefined;
  const plan = readChecked(r, paths.planJson(issue, run), PlanSchema) ?? null;
  const tasks = new Map<string, TaskRecord>();
  for (const t of plan?.tasks ?? []) {
    const rec = readChecked(r, paths.taskJson(issue, run, t.id), TaskRecordSchema);
    if (rec) tasks.set(t.id, rec);
  }
  return { run: record, plan, tasks, jobs: readJobTimes(r, issue, run) };
}

/** The jobs that recorded themselves in the run's folder, oldest first. */
export function readJobTimes(r: Reader, issue: number, run: number): JobTime[] {
  return r
    .list(paths.jobs(issue, run))
    .filter((p) => p.endsWith('.json'))
    .map((p) => readChecked(r, p, JobTimeSchema)!)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** The run's plan; a run past planning without plan.json is refused like a damaged file. */
export function planOf(view: RunView): Plan {
  if (!view.plan) throw new StateFormatError(paths.planJson(view.run.issue, view.run.run), null, `it is missing, though the run is ${view.run.phase}`);
  return view.plan;
}

/** A task as the plan has it; one plan.json does not list is refused like a damaged file. */
export function planTask(view: RunView, id: string): PlanTask {
  const task = planOf(view).tasks.find((t) => t.id === id);
  if (!task) throw new StateFormatError(paths.planJson(view.run.issue, view.run.run), null, `it has no task ${id}`);
  return task;
}

/** A task's record; a task plan.json lists without its file (or one it does not list) is refused like a damaged file. */
export function taskOf(view: RunView, id: string): TaskRecord {
  const rec = view.tasks.get(id);
  if (rec) return rec;
  const { issue, run } = view.run;
  if (view.plan?.tasks.some((t) => t.id === id))
    throw new StateFormatError(paths.taskJson(issue, run, id), null, 'it is missing, though plan.json lists the task');
  throw new StateFormatError(paths.planJson(issue, run), null, `it has no task ${id}`);
}

export function writeRun(tx: StateTx, record: RunRecord, now: string): RunRecord {
  const prev = readRun(tx, record.issue, record.run);
  const next = { ...record, version: (prev?.version ?? 0) + 1, updatedAt: now };
  tx.write(paths.run(record.issue, record.run), json(next));
  return next;
}

/** A task's attempts before `before`, read back from results/attempts/, so a resumed job remembers them. */
export function readAttemptHistory(r: Reader, issue: number, run: number, taskId: string, before: number): PastAttempt[] {
  const folder = `${runFolder(issue, run)}/results/attempts/`;
  const numberOf = (p: string) => Number(new RegExp(`^result_${taskId}_a(\\d+)\\.md$`).exec(p.slice(folder.length))?.[1] ?? Infinity);
  return r
    .list(folder)
    .filter((p) => numberOf(p) < before)
    .map((p) => parseAttemptResult(r.read(p) ?? ''))
    .filter((a): a is PastAttempt => a !== undefined)
    .sort((a, b) => a.attempt - b.attempt);
}

export function writeTask(tx: StateTx, issue: number, run: number, task: TaskRecord): void {
  tx.write(paths.taskJson(issue, run, task.id), json(task));
}

export function writePlan(tx: StateTx, issue: number, run: number, plan: Plan, planMd: string, taskMd: (id: string) => string): void {
  tx.write(paths.planJson(issue, run), json(plan));
  tx.write(paths.planMd(issue, run), planMd);
  for (const t of plan.tasks) tx.write(paths.taskMd(issue, run, t.id), taskMd(t.id));
}

const seconds = (from: string | null | undefined, to: string | null | undefined) => {
  const d = from && to ? Date.parse(to) - Date.parse(from) : NaN;
  return Number.isFinite(d) ? Math.round(d / 1000) : null;
};

/** The run's status in the log's words: running until it ends, then success, partial or failure. */
function logStatus(view: RunView): 'running' | 'success' | 'partial' | 'failure' {
  const { phase } = view.run;
  if (phase === 'FAILED' || phase === 'ABORTED') return 'failure';
  if (phase !== 'COMPLETED') return 'running';
  const unfinished = [...view.tasks.values()].some((t) => !t.replacedBy && t.status !== 'success');
  return view.run.review?.acceptedBy || unfinished ? 'partial' : 'success';
}

/**
 * execution_log.yaml in claude-crew's schema: cmd_id, started, finished and status at the
 * top, then one entry per agent run: the decomposer, each task's worker, the critic, the
 * aggregator and the retrospector, with started, finished, duration_sec, status, error,
 * retries and metadata_issues. A task whose dependency failed is `blocked`. Regenerated
 * from run.json and the per-task files.
 */
export function executionLog(view: RunView): string {
  const phase = (role: PhaseRole) => {
    const p = view.run.phases?.[role];
    return (
      p && {
        role,
        task: null,
        model: p.model,
        started: p.started,
        finished: p.finished,
        duration_sec: seconds(p.started, p.finished),
        status: p.status,
        error: p.error,
        retries: p.retries,
        metadata_issues: [] as string[],
      }
    );
  };
  const tasks = (view.plan?.tasks ?? []).map((t) => {
    const rec = view.tasks.get(t.id);
    return {
      role: `worker_${t.persona}`,
      task: t.id,
      model: rec?.tierOverride ?? t.tier,
      started: rec?.startedAt ?? null,
      finished: rec?.finishedAt ?? null,
      duration_sec: seconds(rec?.startedAt, rec?.finishedAt),
      status: rec?.replacedBy ? 'failure' : (rec?.status ?? 'pending'),
      error: rec?.error ?? null,
      retries: Math.max(0, (rec?.attempts ?? 0) - 1),
      metadata_issues: rec?.metadataIssues ?? [],
      title: t.title,
      depends_on: t.dependsOn,
      branch: rec?.branch ?? null,
      ...(rec?.replacedBy ? { replaced_by: rec.replacedBy } : {}),
      tokens: rec ? { input: rec.usage.inputTokens, output: rec.usage.outputTokens, cache_read: rec.usage.cacheReadTokens } : null,
    };
  });
  const entries = [phase('decomposer'), ...tasks, phase('critic'), phase('aggregator'), phase('retrospector')].filter((e) => !!e);
  const status = logStatus(view);
  return YAML.stringify({
    cmd_id: `issue-${view.run.issue}/run-${view.run.run}`,
    started: view.run.createdAt,
    finished: status === 'running' ? null : view.run.updatedAt,
    status,
    phase: view.run.phase,
    requested_by: view.run.requestedBy,
    base: view.run.base,
    tasks: entries.map((e, i) => ({ id: i + 1, ...e })),
  });
}

export function refreshExecutionLog(tx: StateTx, issue: number, run: number): void {
  const view = readView(tx, issue, run);
  if (view) tx.write(paths.log(issue, run), executionLog(view));
}
