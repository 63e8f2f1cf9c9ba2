import { parse as parseYaml } from 'yaml';

export interface StepSpec {
  id?: string;
  name?: string;
  if?: string | boolean;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  'continue-on-error'?: boolean;
  shell?: string;
  'working-directory'?: string;
}

export interface JobSpec {
  name?: string;
  needs?: string | string[];
  if?: string | boolean;
  permissions?: Record<string, string> | 'read-all' | 'write-all';
  concurrency?: string | { group: string; 'cancel-in-progress'?: boolean | string };
  outputs?: Record<string, string>;
  strategy?: { matrix?: unknown; 'fail-fast'?: boolean | string; 'max-parallel'?: number | string };
  env?: Record<string, unknown>;
  steps: StepSpec[];
  /** The runner's labels: only what hosted image it names matters here (hosted-image.ts). */
  'runs-on'?: unknown;
  'timeout-minutes'?: number;
  /** A job that calls a reusable workflow (docs: "Reusing workflows"): `./<path>` or `<owner>/<repo>/<path>@<ref>`, with no steps. */
  uses?: string;
  with?: Record<string, unknown>;
  secrets?: 'inherit' | Record<string, string>;
}

/** What `on.workflow_call` declares (docs: "Workflow syntax", on.workflow_call). */
export interface WorkflowCallSpec {
  inputs?: Record<string, { required?: boolean; default?: unknown; type?: string } | null>;
  secrets?: Record<string, { required?: boolean } | null>;
  outputs?: Record<string, { value: string } | null>;
}

export interface WorkflowSpec {
  name?: string;
  on: Record<string, any>;
  permissions?: Record<string, string> | 'read-all' | 'write-all';
  concurrency?: unknown;
  env?: Record<string, unknown>;
  jobs: Record<string, JobSpec>;
}

/** Parses a workflow file into the shape the runner executes, with errors that name the file and key. */
export function parseWorkflow(text: string, file: string): WorkflowSpec {
  const doc = parseYaml(text) as Record<string, any>;
  if (!doc || typeof doc !== 'object') throw new Error(`${file}: not a YAML mapping`);
  let on = doc.on ?? doc.true;
  if (typeof on === 'string') on = { [on]: {} };
  else if (Array.isArray(on)) on = Object.fromEntries(on.map((e: string) => [e, {}]));
  if (!on || typeof on !== 'object') throw new Error(`${file}: missing 'on:'`);
  if (!doc.jobs || typeof doc.jobs !== 'object') throw new Error(`${file}: missing 'jobs:'`);
  for (const [id, job] of Object.entries<any>(doc.jobs)) {
    if (typeof job?.uses === 'string') {
      // A caller job holds only what a call may (docs: "Workflow syntax", jobs.<job_id>.uses): no steps, no runner.
      const extra = Object.keys(job).filter((k) => !['name', 'uses', 'with', 'secrets', 'needs', 'if', 'permissions', 'strategy', 'concurrency'].includes(k));
      if (extra.length) throw new Error(`${file}: jobs.${id} calls a reusable workflow and cannot also set ${extra.join(', ')}`);
      continue;
    }
    if (!Array.isArray(job?.steps)) throw new Error(`${file}: jobs.${id}.steps must be a list`);
    for (const [i, step] of job.steps.entries()) {
      if (!step.uses && !step.run) throw new Error(`${file}: jobs.${id}.steps[${i}] needs 'uses' or 'run'`);
    }
  }
  return { ...doc, on: on as Record<string, any>, jobs: doc.jobs } as WorkflowSpec;
}

export function needsOf(job: JobSpec): string[] {
  if (!job.needs) return [];
  return Array.isArray(job.needs) ? job.needs : [job.needs];
}

/** Whether the workflow listens to an event (and, where the trigger lists `types`, to that activity type). */
export function listensTo(wf: WorkflowSpec, event: string, action?: string, ref?: string): boolean {
  if (!(event in wf.on)) return false;
  const types = wf.on[event]?.types as string[] | undefined;
  if (types && action && !types.includes(action)) return false;
  if (ref === undefined) return true;
  // Filters (docs: "Workflow syntax", on.push.<branches|tags>): a push of a tag is matched by
  // `tags`/`tags-ignore`, of a branch by `branches`/`branches-ignore` (pull request events: the
  // base branch). A workflow that filters only tags runs for no branch push, and the other way round.
  const spec = (wf.on[event] ?? {}) as Record<string, string[] | undefined>;
  const isTag = ref.startsWith('refs/tags/');
  const name = ref.replace(/^refs\/(heads|tags)\//, '');
  const [only, ignore, otherOnly, otherIgnore] = isTag
    ? [spec.tags, spec['tags-ignore'], spec.branches, spec['branches-ignore']]
    : [spec.branches, spec['branches-ignore'], spec.tags, spec['tags-ignore']];
  if (!only && !ignore && (otherOnly || otherIgnore)) return false;
  if (only && !only.some((g) => branchGlob(g).test(name))) return false;
  if (ignore && ignore.some((g) => branchGlob(g).test(name))) return false;
  return true;
}

/**
 * GitHub's filter patterns (docs: "Workflow syntax", "Filter pattern cheat sheet"): `*` within a
 * path segment, `**` across them, `[0-9]` a class, `+` one or more and `?` zero or one of what
 * comes before.
 */
function branchGlob(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      re += pattern[i + 1] === '*' ? '.*' : '[^/]*';
      if (pattern[i + 1] === '*') i++;
    } else if (c === '[' && pattern.indexOf(']', i) > i) {
      re += pattern.slice(i, pattern.indexOf(']', i) + 1);
      i = pattern.indexOf(']', i);
    } else if (c === '+' || c === '?') re += c;
    else re += c.replace(/[.^${}()|\\/\]]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
