import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, chmod, cp, mkdir, readdir, readFile, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { FakeArtifactService } from '../artifacts/fake-artifact-service';
import type { FakeGitHub, GitHubEvent } from '../github/fake-github';
import type { Access, JobTag, Scopes } from '../github/model';
import { git, tryGit } from '../git-cli';
import { isTruthy } from './expressions/coerce';
import { evaluateIf, evaluateValue, interpolate, type ExprContext, type ExprValue, type StatusFunctions } from './expressions/index';
import { playComposite, type ActionMeta } from './composite-action';
import { ownTempDir } from '../../../src/sandbox/own-temp';
import { CacheStore, setupActionStandIns, type StandIn, type StandInPost, type StandInStep } from './setup-actions';
import { applyEnvFile, contextEnv, handlerEnv } from './env-file-command';
import { hostedImageEnv } from './hosted-image';
import { readKeyValueFile } from './output-files';
import { orphanCleanup, startProcess, type StepProcess } from './process-control';
import { StepCommands, type ProcessedCommand } from './workflow-commands';
import { listensTo, needsOf, parseWorkflow, type JobSpec, type StepSpec, type WorkflowCallSpec, type WorkflowSpec } from './workflow-file';
import type { PlatformProfile } from '../latency';
import { scaledMs, sleep } from '../time';

export type JobResult = 'success' | 'failure' | 'cancelled' | 'skipped';

export interface KillPoint {
  /** Workflow job id, e.g. `work`. */
  job: string;
  /** The checkpoint name crew logs as `crew checkpoint: <name>`. */
  checkpoint: string;
  /** Only the matrix leg whose values include these. */
  matrix?: Record<string, string>;
  /**
   * Only while the job works on this crew task: the matrix leg's `task` until crew logs
   * `crew task: <id>`, when a work job goes on to the task its own record chained to it.
   */
  task?: string;
  /** `cancel`: the run is cancelled (SIGINT, SIGTERM, SIGKILL); `lost`: the runner vanishes (SIGKILL, no more steps). */
  mode?: 'cancel' | 'lost';
  times?: number;
  /** Plays this cancellation's SIGINT → SIGTERM → kill sequence at this scale instead of the runner's (1: GitHub's real 7.5 s and 10 s). */
  timeScale?: number;
}

export interface StepRun {
  name: string;
  outcome: JobResult;
  exitCode: number | null;
  signal: string | null;
  outputs: Record<string, string>;
}

export interface JobRun {
  id: string;
  name: string;
  matrix?: Record<string, unknown>;
  result: JobResult;
  outputs: Record<string, string>;
  steps: StepRun[];
  log: string[];
  /** The same lines before the runner's secret masking: what crew itself printed, for leak tests. */
  rawLog: string[];
  /** When each log line was written (ms since the epoch), for timestamped log files. */
  logAt?: number[];
  annotations: Array<{ level: 'error' | 'warning' | 'notice'; message: string }>;
  /** Every line the runner took as a workflow command (either form), in order, with the step that printed it. */
  commands?: ProcessedCommand[];
  /** How long it waited for a runner (the latency profile's job start and dispatch lag, scaled). */
  queuedMs?: number;
  /** The fake GitHub records the requests this job's GITHUB_TOKEN made under this name (RecordedRequest.job). */
  key?: string;
  summary: string;
  startedAt: number;
  finishedAt: number;
  killedAt?: string;
  /** The crew task the job works on: its matrix leg's, then each one crew says it goes on to (`crew task: <id>`), with when. */
  tasks?: Array<{ task: string; at: number }>;
  /** The stand-in actions the job ran (setup-actions.ts), with the inputs they got. */
  standIns?: Array<{ uses: string; with: Record<string, unknown> }>;
}

export interface WorkflowRun {
  id: number;
  /** The workflow file, e.g. `.github/workflows/crew.yml`. */
  workflow: string;
  /** Counts the runs of this workflow, from 1, like GitHub's run_number. */
  number: number;
  event: string;
  action?: string;
  actor: string;
  status: 'in_progress' | 'completed';
  cancelled: boolean;
  jobs: JobRun[];
  startedAt: number;
  finishedAt?: number;
  /** The commit GitHub files the run's check runs under: a pull request event's head, else the run's sha. */
  headSha: string;
  /** A workflow_dispatch run's inputs. */
  inputs?: Record<string, string>;
  /** GitHub's run_attempt: 1, then one more each time a person re-runs the run (the same id, a new entry in `runs`). */
  attempt: number;
  /** Why GitHub refused the run before any job started (conclusion `startup_failure`), e.g. a reusable workflow asking for more permissions than its caller grants. */
  startupFailure?: string;
}

export interface RunnerOptions {
  gh: FakeGitHub;
  workRoot: string;
  /**
   * Action repositories by name: `uses: <any-owner>/<name>@<any-ref>` runs the local folder instead; so
   * does a reusable workflow in one (`uses: <owner>/<name>/<path>@<ref>` on a job), and actions/checkout
   * of one (`repository: <owner>/<name>`) gets a copy of its action files, at the one commit the runner
   * knows it by (actionRepoSnapshot).
   */
  actions: Record<string, string>;
  secrets: Record<string, string>;
  vars?: Record<string, string>;
  /** Environment every job process gets from the "runner machine" (e.g. ANTHROPIC_BASE_URL, CREW_TIME_SCALE). */
  env?: Record<string, string>;
  timeScale: number;
  /** The scale of jobs' `timeout-minutes` (default 1: real minutes, which no test reaches). */
  jobTimeScale?: number;
  killPoints?: KillPoint[];
  maxConcurrentJobs?: number;
  onLog?: (job: JobRun, line: string) => void;
  onJobDone?: (run: WorkflowRun, job: JobRun) => void;
  /** How long a dispatched run waits to start, and a job to get a runner (before the time scale); none by default. */
  latency?: Pick<PlatformProfile, 'dispatchLagMs' | 'jobStartMs'>;
  /**
   * GitHub's OIDC token service for jobs with `id-token: write`: as on GitHub (docs: "About security
   * hardening with OpenID Connect"), only those jobs get ACTIONS_ID_TOKEN_REQUEST_URL and
   * ACTIONS_ID_TOKEN_REQUEST_TOKEN.
   */
  oidc?: { url: string; requestToken: string };
  /**
   * Stand-ins for third-party actions, by `owner/name` (`uses: owner/name@ref`): what the action leaves in the
   * job. actions/cache, actions/setup-node and actions/setup-python are built in (setup-actions.ts).
   */
  standIns?: Record<string, StandIn>;
  /** Where the fake cache service keeps its entries (actions/cache): `<workRoot>/actions-cache` by default, kept between runs. */
  cacheDir?: string;
  /**
   * GitHub's artifact service: as on GitHub, a job's actions (not its `run:` steps) get its runtime
   * token and the results service's URL (ACTIONS_RUNTIME_TOKEN, ACTIONS_RESULTS_URL), which
   * @actions/artifact needs.
   */
  artifacts?: FakeArtifactService;
}

/**
 * A third-party action played in-process: it reads its `with:` and the job's environment, exports variables,
 * adds to PATH and sets outputs as the action would, and may leave a post step (setup-actions.ts).
 */
export type { StandIn };

const DEFAULT_PERMISSIONS: Scopes = { contents: 'read', metadata: 'read' };
const CHECKPOINT = /^crew checkpoint: (\S+)/;
/** A work job going on to the next task of a chain (steps/work.ts). */
const TASK_SWITCH = /^crew task: (\S+)/;
/** What GitHub's runner annotates when a step is cancelled, when a step's process fails, and when a runner is lost. */
const OPERATION_CANCELED = 'The operation was canceled.';
const LOST_RUNNER =
  'The hosted runner: fake-runner lost communication with the server. Anything in your workflow that terminates the runner process, starves it for CPU/Memory, or blocks its network access can cause this error.';

/** A job (or matrix leg) in flight, as far as cancellation is concerned. */
interface LiveJob {
  /** Re-evaluates the job's `if:` as if the run were cancelled; true means GitHub lets the job carry on. */
  survivesCancel(): boolean;
  /** Cancels the job: the running step is signalled unless its own `if:` still holds, later steps see cancelled(). */
  cancel(reason?: string): void;
}

/**
 * Executes a repository's workflow files for events from the fake GitHub, the way
 * GitHub's runners would: jobs in `needs` order, `if:` expressions, matrices from
 * job outputs, a fresh clone per job, and each action step as its own process.
 */
/**
 * GitHub's head for a run's check runs: the pull request's head commit for pull request events
 * (GITHUB_SHA is the merge commit); for `pull_request_target`, GITHUB_SHA, the default branch's
 * last commit, which the run is in the context of.
 */
function runHeadSha(e: GitHubEvent, sha: string): string {
  return e.name === 'pull_request_target' ? sha : (pullOf(e)?.head.sha ?? sha);
}

/** A pull request event's pull request (GITHUB_HEAD_REF and GITHUB_BASE_REF are set only for these). */
function pullOf(e: GitHubEvent): { head: { sha: string; ref: string }; base: { ref: string } } | undefined {
  const pull = e.payload.pull_request as { head: { sha: string; ref: string }; base: { ref: string } } | undefined;
  return e.name.startsWith('pull_request') && pull ? pull : undefined;
}

export class WorkflowRunner {
  readonly runs: WorkflowRun[] = [];
  private active = new Set<Promise<void>>();
  private slots: number;
  private waiting: Array<() => void> = [];
  private runIds = 8_000_000_000;
  private unsubscribe: () => void;
  readonly errors: string[] = [];

  /** The fake cache service, shared by every job of every run of this runner (actions/cache, the setup actions' caches). */
  readonly cache: CacheStore;

  constructor(private readonly opts: RunnerOptions) {
    this.cache = new CacheStore(opts.cacheDir ?? join(opts.workRoot, 'actions-cache'));
    this.slots = opts.maxConcurrentJobs ?? 8;
    this.unsubscribe = opts.gh.onEvent((e) => {
      // Tracked from the moment GitHub emits, so idle() never misses a run still being set up.
      const start = () => {
        const p: Promise<void> = this.trigger(e).then(
          () => undefined,
          (err) => void this.errors.push(`trigger ${e.name}: ${err instanceof Error ? err.stack : String(err)}`),
        );
        this.active.add(p);
        void p.finally(() => this.active.delete(p));
        return p;
      };
      if (this.holding === 'all') this.queue.push(start);
      else void start();
    });
  }

  /** Runs waiting for a runner: whole events (`hold()`), or one workflow's runs (`hold(file)`), started by `release()`. */
  private queue: Array<() => Promise<void>> = [];
  private holding: 'all' | Set<string> | null = null;
  /** What each run was started with, so a person can re-run it (GitHub keeps the event and the commit). */
  private startedWith = new Map<number, { wf: WorkflowSpec; file: string; e: GitHubEvent; sha: string; ref: string }>();

  /**
   * Queues the runs that events would start, as if every runner were busy, until `release()`; with
   * `workflow` (a file, `.github/workflows/ci.yml`), only that workflow's runs wait and the others start.
   */
  hold(workflow?: string): void {
    if (!workflow) this.holding = 'all';
    else if (this.holding !== 'all') {
      this.holding ??= new Set();
      this.holding.add(workflow);
    }
  }

  /**
   * Starts the held runs in the order their events came, each after the previous (and whatever it started)
   * finished; or, `together`, all at once, as when runners free up at the same moment.
   */
  async release(together = false): Promise<void> {
    const queue = this.queue;
    this.queue = [];
    this.holding = null;
    if (together) {
      await Promise.all(queue.map((start) => start()));
      return;
    }
    for (const start of queue) {
      await start();
      await this.idle();
    }
  }

  /**
   * A person re-runs a completed run ("Re-run all jobs"), as GitHub does it: the same run id and
   * event and commit, the next `run_attempt`, every job again (new jobs and check runs), and
   * `workflow_run` (completed) sent again when it ends (docs: "Re-running workflows and jobs").
   */
  rerun(runId: number, actor: string): WorkflowRun {
    const first = this.startedWith.get(runId);
    const last = this.runs.filter((r) => r.id === runId).at(-1);
    if (!first || !last) throw new Error(`no workflow run ${runId} to re-run`);
    // GitHub refuses to re-run a run that is still going (the UI offers it only once it has completed).
    if (last.status !== 'completed') throw new Error(`workflow run ${runId} is still ${last.status}; only a completed run can be re-run`);
    const run: WorkflowRun = {
      ...last,
      actor,
      status: 'in_progress',
      cancelled: false,
      jobs: [],
      startedAt: Date.now(),
      finishedAt: undefined,
      attempt: last.attempt + 1,
    };
    this.runs.push(run);
    this.opts.gh.recordWorkflowRun({ id: runId, status: 'in_progress', conclusion: null, runAttempt: run.attempt, actor });
    this.launch(run, first.wf, first.file, first.e, first.sha, first.ref);
    return run;
  }

  stop(): void {
    this.unsubscribe();
  }

  /** Starts a run of every workflow that listens to the event. */
  async trigger(e: GitHubEvent): Promise<WorkflowRun[]> {
    const started: WorkflowRun[] = [];
    // GitHub reads a push's workflows from the pushed commit (a branch without them, like
    // crew/state, starts nothing) and runs nothing for a deleted ref; every other event here
    // runs the default branch's.
    if (e.name === 'push' && e.payload.deleted) return started;
    // One `pull_request` webhook starts the workflows on `pull_request_target` too, in the context of
    // the default branch: its workflow files, GITHUB_REF and GITHUB_SHA, whether or not the pull
    // request merges cleanly (docs: "Events that trigger workflows", pull_request_target).
    if (e.name === 'pull_request') started.push(...(await this.trigger({ ...e, name: 'pull_request_target' })));
    let fixed: { ref: string; sha: string } | undefined;
    // An annotated tag's push names the tag object; GITHUB_SHA is the commit it points at.
    if (e.name === 'push') fixed = { ref: String(e.payload.ref), sha: (await this.opts.gh.repo.resolve(String(e.payload.after))) ?? String(e.payload.after) };
    const pull = e.payload.pull_request as { number: number; head: { sha: string }; base: { ref: string } } | undefined;
    if (e.name.startsWith('pull_request') && e.name !== 'pull_request_target' && pull) {
      // Pull request events run on refs/pull/N/merge, GitHub's test merge of head into base, with
      // that commit's workflows; a pull request that does not merge cleanly runs nothing.
      const merge = await this.opts.gh.repo.writePullRefs(pull.number, pull.base.ref, pull.head.sha);
      if (!merge) return started;
      fixed = { ref: `refs/pull/${pull.number}/merge`, sha: merge };
    }
    const files = e.name === 'workflow_dispatch' ? [String(e.payload.workflow)] : await this.workflowFiles(fixed?.sha);
    for (const file of files) {
      const ref = fixed?.ref ?? (e.name === 'workflow_dispatch' ? String(e.payload.ref) : `refs/heads/${this.opts.gh.defaultBranch}`);
      const sha = fixed?.sha ?? (await this.opts.gh.repo.resolve(ref));
      const text = sha ? await this.opts.gh.repo.readFile(sha, file) : undefined;
      if (!sha || text === undefined) continue;
      let wf: WorkflowSpec;
      try {
        wf = parseWorkflow(text, file);
      } catch (err) {
        // GitHub fails that workflow ("Invalid workflow file") and still runs the others.
        this.errors.push(`invalid workflow file ${file}: ${(err as Error).message}`);
        continue;
      }
      const filterRef = e.name === 'push' ? String(e.payload.ref) : e.name.startsWith('pull_request') ? pullOf(e)?.base.ref : undefined;
      if (!listensTo(wf, e.name, e.payload.action as string | undefined, filterRef)) continue;
      // workflow_run starts only the workflows that name the completed one in `workflows:` (docs: "Events that trigger workflows").
      if (e.name === 'workflow_run' && !workflowRunNames(wf).includes(String((e.payload.workflow as { name?: unknown } | undefined)?.name))) continue;
      // A held workflow's run waits for a runner; it is created (and numbered) when it starts.
      const begin = () => this.create(wf, file, e, sha, ref);
      if (this.holding instanceof Set && this.holding.has(file)) {
        this.queue.push(async () => void begin());
        continue;
      }
      started.push(begin());
    }
    return started;
  }

  /** A run of `file` for the event: numbered, recorded as GitHub's, and started. */
  private create(wf: WorkflowSpec, file: string, e: GitHubEvent, sha: string, ref: string): WorkflowRun {
    const run: WorkflowRun = {
      id: ++this.runIds,
      workflow: file,
      number: new Set(this.runs.filter((r) => r.workflow === file).map((r) => r.id)).size + 1,
      event: e.name,
      action: e.payload.action as string | undefined,
      actor: e.actor,
      status: 'in_progress',
      cancelled: false,
      jobs: [],
      startedAt: Date.now(),
      headSha: runHeadSha(e, sha),
      ...(e.name === 'workflow_dispatch' ? { inputs: { ...(e.payload.inputs as Record<string, string>) } } : {}),
      attempt: 1,
    };
    this.runs.push(run);
    this.startedWith.set(run.id, { wf, file, e, sha, ref });
    // GitHub knows its runs: crew can ask whether the run that claimed a task is still alive.
    const headRepo = (pullOf(e) as { head: { repo?: { full_name?: string; owner?: { login?: string } } | null } } | undefined)?.head.repo;
    const headOwner = headRepo?.full_name && headRepo.full_name !== `${this.opts.gh.owner}/${this.opts.gh.repoName}` ? headRepo.owner?.login : undefined;
    this.opts.gh.recordWorkflowRun({
      id: run.id,
      runNumber: run.number,
      name: wf.name ?? file,
      ...(headOwner ? { headOwner } : {}),
      path: file,
      event: e.name,
      actor: e.actor,
      headSha: run.headSha,
      headBranch: (e.name === 'pull_request_target' ? undefined : pullOf(e)?.head.ref) ?? ref.replace(/^refs\/heads\//, ''),
      status: 'in_progress',
      conclusion: null,
    });
    this.launch(run, wf, file, e, sha, ref);
    return run;
  }

  /** Executes a run (or a re-run's attempt); when it ends, GitHub's record of it is completed and `workflow_run` is sent. */
  private launch(run: WorkflowRun, wf: WorkflowSpec, file: string, e: GitHubEvent, sha: string, ref: string): void {
    const p = this.execute(run, wf, file, e, sha, ref)
      .catch((err) => {
        this.errors.push(`run ${run.id} (${file}): ${err instanceof Error ? err.stack : String(err)}`);
      })
      .finally(() => {
        run.status = 'completed';
        run.finishedAt = Date.now();
        const results = run.jobs.map((j) => j.result);
        const conclusion = run.startupFailure ? 'startup_failure' : run.cancelled ? 'cancelled' : results.includes('failure') ? 'failure' : 'success';
        this.opts.gh.recordWorkflowRun({ id: run.id, status: 'completed', conclusion });
        // GitHub then sends workflow_run (completed), which may start other workflows: tracked like any event's runs.
        const sent = this.opts.gh.workflowRunCompleted(run.id).catch((err: unknown) => {
          this.errors.push(`workflow_run for run ${run.id}: ${err instanceof Error ? err.stack : String(err)}`);
        });
        this.active.add(sent);
        void sent.finally(() => this.active.delete(sent));
        this.active.delete(p);
      });
    this.active.add(p);
  }

  /** Resolves once no run is in progress (runs started by other runs included). */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  private async workflowFiles(at = `refs/heads/${this.opts.gh.defaultBranch}`): Promise<string[]> {
    const files = await this.opts.gh.repo.listFiles(at);
    return files.filter((f) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(f));
  }

  private async acquire(): Promise<void> {
    if (this.slots > 0) {
      this.slots--;
      return;
    }
    await new Promise<void>((r) => this.waiting.push(r));
  }

  private releaseSlot(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.slots++;
  }

  /**
   * Cancels a run the way GitHub does: jobs in flight whose `if:` still holds once the run is cancelled (e.g.
   * `always()`) carry on untouched; the others are cancelled. Jobs that have not started yet see cancelled().
   */
  cancel(run: WorkflowRun, timeScale?: number): void {
    if (run.cancelled) return;
    run.cancelled = true;
    if (timeScale !== undefined) this.cancelScale.set(run.id, timeScale);
    for (const live of [...(this.live.get(run.id) ?? [])]) {
      if (!live.survivesCancel()) live.cancel();
    }
  }

  private live = new Map<number, Set<LiveJob>>();
  /** A kill point's own scale for the cancellation sequence of its run. */
  private cancelScale = new Map<number, number>();

  private async execute(run: WorkflowRun, wf: WorkflowSpec, file: string, e: GitHubEvent, sha: string, ref: string) {
    const dir = join(this.opts.workRoot, run.attempt > 1 ? `run-${run.id}-${run.attempt}` : `run-${run.id}`);
    await mkdir(dir, { recursive: true });
    const eventPath = join(dir, 'event.json');
    await writeFile(eventPath, JSON.stringify({ ...e.payload }, null, 2));
    // GitHub reads every called workflow before the run starts: one it cannot call fails the run with no job run at all.
    const calls = new Map<string, Call>();
    for (const [id, spec] of Object.entries(wf.jobs)) {
      if (!spec.uses) continue;
      const call = await this.prepareCall(wf, file, id, spec, sha, ref);
      if (typeof call === 'string') {
        run.startupFailure = call;
        return;
      }
      calls.set(id, call);
    }
    await this.runJobs(run, wf, file, e, sha, ref, eventPath, dir, undefined, calls);
  }

  /** A workflow's jobs in `needs` order; with `scope`, the jobs of a workflow a caller job called. */
  private async runJobs(
    run: WorkflowRun,
    wf: WorkflowSpec,
    file: string,
    e: GitHubEvent,
    sha: string,
    ref: string,
    eventPath: string,
    dir: string,
    scope: CallScope | undefined,
    calls: ReadonlyMap<string, Call>,
  ): Promise<Map<string, { result: JobResult; outputs: Record<string, string> }>> {
    const results = new Map<string, { result: JobResult; outputs: Record<string, string> }>();
    const pending = new Set(Object.keys(wf.jobs));
    const running = new Map<string, Promise<void>>();
    while (pending.size > 0 || running.size > 0) {
      for (const id of [...pending]) {
        const needs = needsOf(wf.jobs[id]!);
        const unknown = needs.filter((n) => !(n in wf.jobs));
        if (unknown.length) throw new Error(`${file}: jobs.${id}.needs names unknown job(s) ${unknown.join(', ')}`);
        if (!needs.every((n) => results.has(n))) continue;
        pending.delete(id);
        const call = calls.get(id);
        const job = call
          ? this.runCall(run, wf, file, id, call, e, sha, ref, eventPath, dir, results)
          : this.runJobWithMatrix(run, wf, file, id, e, sha, ref, eventPath, dir, results, scope);
        const p = job.then((r) => {
          results.set(id, r);
          running.delete(id);
        });
        running.set(id, p);
      }
      if (running.size === 0 && pending.size > 0) throw new Error(`${file}: jobs ${[...pending].join(', ')} can never start (cyclic needs)`);
      await Promise.race(running.values());
    }
    return results;
  }

  /**
   * Reads and checks the workflow a job calls, as GitHub does before the run starts (docs: "Reusing
   * workflows"; "Workflow syntax", on.workflow_call): it must be found and listen to `workflow_call`;
   * the caller may pass only the inputs and secrets it declares, and must pass the required ones; and
   * no called job may ask for more of the GITHUB_TOKEN than the caller job grants ("The GITHUB_TOKEN
   * permissions passed from the caller workflow can be only downgraded by the called workflow"). A
   * string is GitHub's reason for refusing the run.
   */
  private async prepareCall(callerWf: WorkflowSpec, file: string, id: string, spec: JobSpec, sha: string, ref: string): Promise<Call | string> {
    const gh = this.opts.gh;
    const uses = spec.uses!;
    const refuse = (why: string) => `${file}: jobs.${id}: error calling workflow '${uses}'. ${why}`;
    if (spec.strategy?.matrix) throw new Error(`${file}: jobs.${id}: the offline runner does not play a matrix of reusable workflow calls`);
    let text: string | undefined;
    let at: Omit<Call, 'wf' | 'ceiling'>;
    if (uses.startsWith('./')) {
      // A workflow of the same repository comes from the caller's own commit.
      at = { file: uses.slice(2), repository: `${gh.owner}/${gh.repoName}`, sha, ref };
      text = await gh.repo.readFile(sha, at.file);
    } else {
      const m = /^([^/@]+)\/([^/@]+)\/(\.github\/workflows\/[^/@]+\.ya?ml)@(.+)$/.exec(uses);
      if (!m) return refuse(`'uses' must be ./.github/workflows/<file> or <owner>/<repo>/.github/workflows/<file>@<ref>.`);
      const source = this.opts.actions[m[2]!];
      if (!source) return refuse('Workflow was not found.');
      const snapshot = await actionRepoSnapshot(source);
      at = { file: m[3]!, repository: `${m[1]}/${m[2]}`, sha: snapshot.sha, ref: m[4]! };
      text = await readFile(join(source, at.file), 'utf8').catch(() => undefined);
    }
    if (text === undefined) return refuse('Workflow was not found.');
    let called: WorkflowSpec;
    try {
      called = parseWorkflow(text, at.file);
    } catch (err) {
      return refuse((err as Error).message);
    }
    if (!('workflow_call' in called.on)) return refuse('The workflow is not reusable: it is missing an `on.workflow_call` trigger.');
    const decl = (called.on.workflow_call ?? {}) as WorkflowCallSpec;
    const declaredSecrets = decl.secrets ?? {};
    const passed = spec.secrets === 'inherit' ? undefined : (spec.secrets ?? {});
    for (const k of Object.keys(passed ?? {})) if (!(k in declaredSecrets)) return refuse(`Invalid secret, ${k} is not defined in the referenced workflow.`);
    for (const [k, v] of Object.entries(declaredSecrets)) {
      if (v?.required && passed && !(k in passed)) return refuse(`Secret ${k} is required, but not provided while calling.`);
    }
    const declaredInputs = decl.inputs ?? {};
    for (const k of Object.keys(spec.with ?? {})) if (!(k in declaredInputs)) return refuse(`Invalid input, ${k} is not defined in the referenced workflow.`);
    for (const [k, v] of Object.entries(declaredInputs)) {
      if (v?.required && !(k in (spec.with ?? {}))) return refuse(`Input ${k} is required, but not provided while calling.`);
    }
    const ceiling = this.scopesFor(callerWf, spec);
    for (const [jobId, job] of Object.entries(called.jobs)) {
      if (job.uses) throw new Error(`${at.file}: jobs.${jobId}: the offline runner does not play nested reusable workflows`);
      if ((job.permissions ?? called.permissions) === undefined) continue; // such a job gets the caller's permissions
      for (const [scope, access] of Object.entries(this.scopesFor(called, job))) {
        if (scope === 'metadata') continue;
        const allowed = (ceiling as Record<string, Access | undefined>)[scope] ?? 'none';
        if (ACCESS_RANK[access as Access] > ACCESS_RANK[allowed])
          return refuse(`The nested job '${jobId}' is requesting '${scope}: ${access}', but is only allowed '${scope}: ${allowed}'.`);
      }
    }
    return { ...at, wf: called, ceiling };
  }

  /**
   * A job that calls a reusable workflow: its `if:` and `needs` are the caller's; the called workflow's
   * jobs then run in the caller's run, each named `<caller job> / <job>` as the Actions API lists it, with
   * the caller's `github` context (event, workflow_ref: docs, "Reusing workflows": "the github context is
   * always associated with the caller workflow"), the inputs and secrets the caller passes (`secrets:
   * inherit`, all of the caller's), and the `job` context's facts about the called file
   * (job.workflow_repository, job.workflow_sha; docs: "Contexts", job context). Its outputs are the
   * called workflow's `on.workflow_call.outputs`.
   */
  private async runCall(
    run: WorkflowRun,
    wf: WorkflowSpec,
    file: string,
    id: string,
    call: Call,
    e: GitHubEvent,
    sha: string,
    ref: string,
    eventPath: string,
    dir: string,
    results: Map<string, { result: JobResult; outputs: Record<string, string> }>,
  ): Promise<{ result: JobResult; outputs: Record<string, string> }> {
    const spec = wf.jobs[id]!;
    const needs: Record<string, ExprValue> = {};
    for (const n of needsOf(spec)) needs[n] = { result: results.get(n)!.result, outputs: results.get(n)!.outputs };
    const ctx: ExprContext = { ...this.baseContext(run, wf, file, e, sha, ref, eventPath), needs, secrets: { ...this.opts.secrets } };
    const name = spec.name ?? id;
    let go: boolean;
    try {
      go = evaluateIf(
        spec.if,
        ctx,
        statusFunctions(wf, id, results, () => run.cancelled),
      );
    } catch (err) {
      this.errors.push(`${file}: jobs.${id}.if: ${(err as Error).message}`);
      go = false;
    }
    if (!go) {
      const at = Date.now();
      const jr: JobRun = {
        id,
        name,
        result: 'skipped',
        outputs: {},
        steps: [],
        log: [],
        rawLog: [],
        annotations: [],
        summary: '',
        startedAt: at,
        finishedAt: at,
      };
      run.jobs.push(jr);
      const checkId = this.opts.gh.recordJobCheckRun({ runId: run.id, headSha: run.headSha, name, conclusion: 'skipped' });
      this.recordJob(run, wf, file, jr, checkId, 'skipped', []);
      return { result: 'skipped', outputs: {} };
    }
    const decl = (call.wf.on.workflow_call ?? {}) as WorkflowCallSpec;
    const given = (evaluateValue(spec.with ?? {}, ctx) ?? {}) as Record<string, ExprValue>;
    const inputs: Record<string, ExprValue> = {};
    for (const [k, v] of Object.entries(decl.inputs ?? {})) {
      const value = k in given ? given[k] : v?.default !== undefined ? (evaluateValue(v.default, ctx) as ExprValue) : undefined;
      if (value !== undefined) inputs[k] = value;
    }
    let secrets: Record<string, string>;
    if (spec.secrets === 'inherit') secrets = { ...this.opts.secrets };
    else {
      secrets = {};
      for (const [k, v] of Object.entries(spec.secrets ?? {})) {
        const value = String(evaluateValue(v, ctx) ?? '');
        if (value) secrets[k] = value;
      }
    }
    const scope: CallScope = {
      github: ctx.github!,
      prefix: `${name} / `,
      callerId: id,
      inputs,
      secrets,
      ceiling: call.ceiling,
      job: {
        workflow_repository: call.repository,
        workflow_sha: call.sha,
        workflow_ref: `${call.repository}/${call.file}@${call.ref}`,
        workflow_file_path: call.file,
      },
    };
    const inner = await this.runJobs(run, call.wf, call.file, e, sha, ref, eventPath, join(dir, id), scope, new Map());
    const jobs: Record<string, ExprValue> = {};
    for (const [jobId, r] of inner) jobs[jobId] = { result: r.result, outputs: r.outputs };
    const outputs: Record<string, string> = {};
    for (const [k, v] of Object.entries(decl.outputs ?? {})) {
      if (v?.value !== undefined) outputs[k] = interpolate(String(v.value), { ...ctx, jobs });
    }
    return { result: jobResultOf([...inner.values()].map((r) => r.result)), outputs };
  }

  private baseContext(run: WorkflowRun, wf: WorkflowSpec, file: string, e: GitHubEvent, sha: string, ref: string, eventPath: string): ExprContext {
    const gh = this.opts.gh;
    return {
      github: {
        event_name: e.name,
        event: e.payload as ExprValue,
        repository: `${gh.owner}/${gh.repoName}`,
        repository_owner: gh.owner,
        ref,
        ref_name: ref.replace(/^refs\/(heads|tags|pull)\//, ''),
        head_ref: pullOf(e)?.head.ref ?? '',
        base_ref: pullOf(e)?.base.ref ?? '',
        sha,
        actor: e.actor,
        triggering_actor: e.actor,
        run_id: String(run.id),
        run_number: String(run.number),
        run_attempt: String(run.attempt),
        workflow: wf.name ?? file,
        workflow_ref: `${gh.owner}/${gh.repoName}/${file}@${ref}`,
        server_url: gh.url,
        api_url: gh.url,
        graphql_url: `${gh.url}/graphql`,
        event_path: eventPath,
        retention_days: '90',
      },
      inputs: (e.name === 'workflow_dispatch' ? (e.payload.inputs as ExprValue) : {}) ?? {},
      vars: { ...this.opts.vars },
      runner: { os: 'Linux', arch: 'X64', name: 'fake-runner', environment: 'github-hosted' },
    };
  }

  private async runJobWithMatrix(
    run: WorkflowRun,
    wf: WorkflowSpec,
    file: string,
    id: string,
    e: GitHubEvent,
    sha: string,
    ref: string,
    eventPath: string,
    dir: string,
    results: Map<string, { result: JobResult; outputs: Record<string, string> }>,
    scope?: CallScope,
  ): Promise<{ result: JobResult; outputs: Record<string, string> }> {
    const spec = wf.jobs[id]!;
    const needs: Record<string, ExprValue> = {};
    for (const n of needsOf(spec)) needs[n] = { result: results.get(n)!.result, outputs: results.get(n)!.outputs };
    // A called workflow's jobs see the caller's github context (scope.github), and their own inputs.
    const base = this.baseContext(run, wf, file, e, sha, ref, eventPath);
    const ctx: ExprContext = { ...base, needs, ...(scope ? { github: scope.github, inputs: scope.inputs } : {}) };
    const prefix = scope?.prefix ?? '';
    const status = statusFunctions(wf, id, results, () => run.cancelled);
    const afterCancel: StatusFunctions = { ...status, success: () => false, cancelled: () => true };
    const survivesCancel = () => {
      try {
        return evaluateIf(spec.if, ctx, afterCancel);
      } catch {
        return false;
      }
    };
    /** A job or leg that never ran: skipped, cancelled before it started, or failed before its steps. Each is a completed check run too. */
    const neverRan = (result: JobResult, name: string, matrix?: Record<string, unknown>, error?: string): JobRun => {
      const jr: JobRun = {
        id,
        name,
        ...(matrix ? { matrix } : {}),
        result,
        outputs: {},
        steps: [],
        log: error ? [error] : [],
        rawLog: [],
        annotations: error ? [{ level: 'error', message: error }] : [],
        summary: '',
        startedAt: Date.now(),
        finishedAt: Date.now(),
      };
      run.jobs.push(jr);
      const conclusion = result === 'skipped' ? 'skipped' : result === 'cancelled' ? 'cancelled' : 'failure';
      const checkId = this.opts.gh.recordJobCheckRun({ runId: run.id, headSha: run.headSha, name, conclusion });
      this.recordJob(run, wf, file, jr, checkId, conclusion, []);
      return jr;
    };
    const skipped = (): { result: JobResult; outputs: Record<string, string> } => {
      neverRan('skipped', prefix + (spec.name ?? id));
      return { result: 'skipped', outputs: {} };
    };
    let go: boolean;
    try {
      go = evaluateIf(spec.if, ctx, status);
    } catch (err) {
      this.errors.push(`${file}: jobs.${id}.if: ${(err as Error).message}`);
      return skipped();
    }
    if (!go) return skipped();

    const legs = matrixLegs(spec, ctx, file, id);
    if (typeof legs === 'string') {
      neverRan('failure', prefix + (spec.name ?? id), undefined, legs);
      return { result: 'failure', outputs: {} };
    }
    const failFast = spec.strategy?.['fail-fast'] === undefined ? true : String(evaluateValue(spec.strategy['fail-fast'], ctx)) !== 'false';
    const maxParallel = spec.strategy?.['max-parallel'] ? Number(evaluateValue(spec.strategy['max-parallel'], ctx)) : legs.length;
    const jobRuns: JobRun[] = [];
    let failedLeg: Record<string, unknown> | undefined;
    const inFlight = new Set<LiveJob>();
    const queue = legs.map((matrix, index) => ({ matrix, index }));
    const worker = async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        if (failedLeg && failFast && item.matrix) {
          jobRuns.push(neverRan('cancelled', prefix + legName(spec, id, item.matrix), item.matrix));
          continue;
        }
        await this.acquire();
        try {
          if (run.cancelled && !survivesCancel()) {
            // Still queued when the run was cancelled: GitHub never starts it.
            jobRuns.push(neverRan('cancelled', prefix + legName(spec, id, item.matrix), item.matrix));
            continue;
          }
          const legCtx: ExprContext = {
            ...ctx,
            matrix: (item.matrix ?? {}) as ExprValue,
            strategy: { 'fail-fast': failFast, 'job-index': item.index, 'job-total': legs.length, 'max-parallel': maxParallel },
          };
          // Among the run's first jobs to run when every job it needs was skipped (or it needs none):
          // a dispatched run's `work`, whose `route` is skipped, waits for the run to start too.
          const first = ancestorsOf(wf, id).every((n) => results.get(n)!.result === 'skipped');
          const jr = await this.runJob(run, wf, file, id, spec, legCtx, sha, eventPath, dir, item.matrix, item.index, survivesCancel, inFlight, first, scope);
          jobRuns.push(jr);
          if (jr.result === 'failure' && item.matrix && !failedLeg) {
            failedLeg = item.matrix;
            // fail-fast: GitHub cancels the legs in progress as well as the queued ones.
            if (failFast) for (const leg of [...inFlight]) leg.cancel(`The job was canceled because "${matrixKey(failedLeg)}" failed.`);
          }
        } finally {
          this.releaseSlot();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(maxParallel, legs.length)) }, worker));
    const result = jobResultOf(jobRuns.map((j) => j.result));
    const outputs: Record<string, string> = {};
    for (const j of jobRuns) Object.assign(outputs, j.outputs);
    return { result, outputs };
  }

  private scopesFor(wf: WorkflowSpec, spec: JobSpec, ceiling?: Scopes): Scopes {
    const p = spec.permissions ?? wf.permissions;
    if (p === undefined) return ceiling ?? DEFAULT_PERMISSIONS;
    if (p === 'read-all' || p === 'write-all') {
      const a: Access = p === 'read-all' ? 'read' : 'write';
      return { contents: a, issues: a, 'pull-requests': a, actions: a, checks: a, statuses: a, metadata: 'read' };
    }
    return { ...(p as Scopes) };
  }

  private async runJob(
    run: WorkflowRun,
    wf: WorkflowSpec,
    file: string,
    id: string,
    spec: JobSpec,
    ctx: ExprContext,
    sha: string,
    eventPath: string,
    dir: string,
    matrix: Record<string, unknown> | undefined,
    index: number,
    survivesCancel: () => boolean,
    siblings: Set<LiveJob>,
    first: boolean,
    scope?: CallScope,
  ): Promise<JobRun> {
    const gh = this.opts.gh;
    // Queued: a runner is picked and set up (and a dispatched run's first jobs wait for the run to start).
    const queued = (this.opts.latency?.jobStartMs ?? 0) + (run.event === 'workflow_dispatch' && first ? (this.opts.latency?.dispatchLagMs ?? 0) : 0);
    const queuedMs = scaledMs(queued, this.opts.timeScale);
    if (queuedMs) await sleep(queuedMs);
    const jobDir = join(dir, matrix ? `${id}-${index}` : id);
    const workspace = join(jobDir, 'workspace');
    const temp = join(jobDir, 'temp');
    const home = join(jobDir, 'home');
    await Promise.all([workspace, temp, home].map((d) => mkdir(d, { recursive: true })));
    // GitHub mints a token per job; tagged, the fake puts each request down to this job and its step.
    const tag: JobTag = { job: `${run.id}/${id}${matrix ? `/${index}` : ''}` };
    const token = gh.actionsToken(this.scopesFor(wf, spec, scope?.ceiling), run.id, tag);
    const secrets = scope?.secrets ?? this.opts.secrets;
    const masks = new Set<string>([token, ...Object.values(this.opts.secrets)].filter((s) => s.length >= 4));
    const job: JobRun = {
      id,
      name: (scope?.prefix ?? '') + legName(spec, id, matrix),
      matrix,
      result: 'success',
      outputs: {},
      steps: [],
      log: [],
      queuedMs,
      key: tag.job,
      rawLog: [],
      annotations: [],
      summary: '',
      startedAt: Date.now(),
      finishedAt: 0,
    };
    run.jobs.push(job);
    // Every job is a check run on the run's head, in progress while it runs, as on GitHub.
    const checkRun = gh.recordJobCheckRun({ runId: run.id, headSha: run.headSha, name: job.name, conclusion: null });
    // The Actions API lists a job while it runs, in_progress with no conclusion ("List jobs for a workflow run").
    gh.recordWorkflowJob({
      id: checkRun,
      runId: run.id,
      runAttempt: run.attempt,
      name: job.name,
      headSha: run.headSha,
      headBranch: gh.workflowRuns.get(run.id)?.headBranch ?? '',
      workflowName: gh.workflowRuns.get(run.id)?.name ?? wf.name ?? file,
      status: 'in_progress',
      conclusion: null,
      startedAt: new Date(job.startedAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      completedAt: null,
      steps: [],
      log: '',
    });
    const github = { ...(ctx.github as Record<string, ExprValue>), job: id, token, workspace };
    const jobCtx: ExprContext = {
      ...ctx,
      github,
      secrets: { ...secrets, GITHUB_TOKEN: token },
      job: { status: 'success', ...scope?.job },
      runner: { ...(ctx.runner as object), temp } as ExprValue,
    };
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...wf.env, ...spec.env })) env[k] = String(evaluateValue(v, jobCtx) ?? '');
    // The hosted image's own variables (hosted-image.ts), under the job's and the runner's.
    const image = hostedImageEnv(evaluateValue((spec['runs-on'] ?? null) as ExprValue, jobCtx));
    const addedPath: string[] = [];
    const steps: Record<string, ExprValue> = {};
    let failed = false;
    let lost = false;
    /** Set once this job gets a cancellation (the run's, or fail-fast's); jobs started after a run was cancelled never get one. */
    let cancelled = false;
    let canceledNoted = false;
    /** Where each step that ran begins in the job's log, for the log GitHub serves. */
    const stepStarts: Array<{ name: string; index: number }> = [];
    /** The step in progress: whether its `if:` holds after a cancellation, and whether it has been told to stop. */
    let current: { proc?: StepProcess; survives: () => boolean; signalled: boolean } | undefined;
    const mask = (text: string) => {
      let masked = text;
      for (const m of masks) masked = masked.split(m).join('***');
      return masked;
    };
    const log = (line: string) => {
      const masked = mask(line);
      job.rawLog.push(line);
      job.log.push(masked);
      (job.logAt ??= []).push(Date.now());
      this.opts.onLog?.(job, masked);
    };
    const annotate = (level: 'error' | 'warning' | 'notice', message: string) => {
      const masked = mask(message);
      job.annotations.push({ level, message: masked });
      log(`##[${level}]${masked}`);
    };
    const live: LiveJob = {
      survivesCancel,
      cancel: (reason) => {
        if (cancelled) return;
        cancelled = true;
        if (reason) annotate('error', reason);
        if (current && !current.survives()) {
          current.signalled = true;
          current.proc?.cancel(this.cancelScale.get(run.id) ?? this.opts.timeScale);
        }
      },
    };
    let liveSet = this.live.get(run.id);
    if (!liveSet) this.live.set(run.id, (liveSet = new Set()));
    liveSet.add(live);
    // Every step's processes carry it, for the orphan clean-up at the job's end (process-control.ts).
    const trackingId = randomUUID();
    // The post steps the stand-ins left (setup-actions.ts), run after the job's steps in reverse order.
    const posts: Array<{ uses: string; run: () => Promise<void>; always?: boolean }> = [];
    siblings.add(live);
    // GitHub cancels a job that runs past its timeout-minutes (default 360) and fails it. Job limits
    // scale apart from waits (jobTimeScale): they measure process starts and git too, which do not shrink.
    const limitMinutes = Number(spec['timeout-minutes'] ?? 360) || 360;
    let timedOut = false;
    const limitTimer = setTimeout(
      () => {
        timedOut = true;
        live.cancel(`The job running on runner fake-runner has exceeded the maximum execution time of ${limitMinutes} minutes.`);
      },
      limitMinutes * 60_000 * (this.opts.jobTimeScale ?? 1),
    );
    limitTimer.unref();

    // One runtime token per job: its backend ids name this job of this workflow run; with it, the OIDC token
    // service for jobs with `id-token: write` (docs: "About security hardening with OpenID Connect").
    const services: Record<string, string> = {
      ...this.opts.artifacts?.jobEnv(run.id, id),
      ...(this.opts.oidc && (spec.permissions ?? wf.permissions)?.['id-token' as never] === 'write'
        ? { ACTIONS_ID_TOKEN_REQUEST_URL: this.opts.oidc.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: this.opts.oidc.requestToken }
        : {}),
    };
    try {
      for (const [i, step] of spec.steps.entries()) {
        const stepName = step.name ?? step.id ?? step.uses ?? step.run?.split('\n')[0] ?? `step ${i}`;
        const stepStatus: StatusFunctions = {
          success: () => !failed && !cancelled,
          failure: () => failed,
          cancelled: () => cancelled,
          always: () => true,
        };
        const sctx: ExprContext = {
          ...jobCtx,
          steps,
          env: { ...env },
          job: { ...scope?.job, status: failed ? 'failure' : cancelled ? 'cancelled' : 'success' },
        };
        let go = false;
        try {
          go = !lost && evaluateIf(step.if, sctx, stepStatus);
        } catch (err) {
          annotate('error', `The step '${stepName}' failed to evaluate its condition: ${(err as Error).message}`);
          failed = true;
        }
        if (!go) {
          job.steps.push({ name: stepName, outcome: 'skipped', exitCode: null, signal: null, outputs: {} });
          if (step.id) steps[step.id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' };
          continue;
        }
        const afterCancel: StatusFunctions = { ...stepStatus, success: () => false, cancelled: () => true };
        const me = {
          proc: undefined as StepProcess | undefined,
          signalled: false,
          survives: () => {
            try {
              return evaluateIf(step.if, { ...sctx, job: { ...scope?.job, status: 'cancelled' } }, afterCancel);
            } catch {
              return false;
            }
          },
        };
        current = me;
        tag.step = stepName;
        stepStarts.push({ name: stepName, index: job.log.length });
        const stepEnv: Record<string, string> = { ...env };
        for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = String(evaluateValue(v, sctx) ?? '');
        // The env context a step's own fields see includes the step's env.
        const runCtx: ExprContext = { ...sctx, env: { ...stepEnv } };
        const files = {
          output: join(temp, `output-${i}`),
          summary: join(temp, `summary-${i}`),
          env: join(temp, `env-${i}`),
          path: join(temp, `path-${i}`),
          state: join(temp, `state-${i}`),
        };
        await Promise.all(Object.values(files).map((f) => writeFile(f, '')));
        const processEnv: NodeJS.ProcessEnv = {
          PATH: [...addedPath, process.env.PATH].filter(Boolean).join(':'),
          HOME: home,
          LANG: 'C.UTF-8',
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          ...image,
          ...this.opts.env,
          ...stepEnv,
          ...contextEnv(sctx.github as Record<string, unknown>, (sctx.runner ?? {}) as Record<string, unknown>),
          GITHUB_ACTION: step.id ?? `__step${i}`,
          GITHUB_ACTOR: run.actor,
          GITHUB_API_URL: gh.url,
          GITHUB_SERVER_URL: gh.serverUrl,
          GITHUB_GRAPHQL_URL: `${gh.url}/graphql`,
          GITHUB_EVENT_NAME: run.event,
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_JOB: id,
          GITHUB_REF: String((ctx.github as Record<string, ExprValue>).ref),
          GITHUB_REF_NAME: String((ctx.github as Record<string, ExprValue>).ref_name),
          GITHUB_HEAD_REF: String((ctx.github as Record<string, ExprValue>).head_ref),
          GITHUB_BASE_REF: String((ctx.github as Record<string, ExprValue>).base_ref),
          GITHUB_REPOSITORY: `${gh.owner}/${gh.repoName}`,
          GITHUB_REPOSITORY_OWNER: gh.owner,
          GITHUB_REPOSITORY_ID: String(gh.repoId),
          GITHUB_RUN_ID: String(run.id),
          GITHUB_RUN_NUMBER: String((ctx.github as Record<string, ExprValue>).run_number),
          GITHUB_RUN_ATTEMPT: String(run.attempt),
          GITHUB_SHA: sha,
          GITHUB_WORKFLOW: String((ctx.github as Record<string, ExprValue>).workflow),
          GITHUB_WORKFLOW_REF: String((ctx.github as Record<string, ExprValue>).workflow_ref),
          GITHUB_WORKSPACE: workspace,
          GITHUB_OUTPUT: files.output,
          GITHUB_STEP_SUMMARY: files.summary,
          GITHUB_ENV: files.env,
          GITHUB_PATH: files.path,
          GITHUB_STATE: files.state,
          RUNNER_TEMP: temp,
          RUNNER_OS: 'Linux',
          RUNNER_ARCH: 'X64',
          RUNNER_NAME: 'fake-runner',
          RUNNER_TOOL_CACHE: join(jobDir, 'toolcache'),
          RUNNER_TRACKING_ID: trackingId,
          // Written over the step's env by the handler, as ScriptHandler.cs does for a run step (env-file-command.ts).
          ...handlerEnv('script', services),
        };
        // A stand-in plays a node action: the runtime services too (NodeScriptActionHandler.cs).
        const actionEnv: NodeJS.ProcessEnv = { ...processEnv, ...handlerEnv('node', services) };
        let outcome: JobResult = 'success';
        let exitCode: number | null = 0;
        const commandOutputs: Record<string, string> = {};
        let signal: string | null = null;
        try {
          const standIn = step.uses ? this.standIn(step.uses) : undefined;
          if (standIn) {
            const post = await this.playStandIn(standIn, step.uses!, evaluateValue(step.with ?? {}, runCtx) as Record<string, unknown>, {
              env: actionEnv,
              workspace,
              files,
              log,
              job,
            });
            if (post) posts.push({ uses: step.uses!, ...post });
            log(`${step.uses}: done`);
          } else if (step.uses && /^actions\/checkout@/.test(step.uses)) {
            const withs = evaluateValue(step.with ?? {}, runCtx) as Record<string, unknown>;
            const other = withs.repository && String(withs.repository) !== `${gh.owner}/${gh.repoName}` ? String(withs.repository) : undefined;
            if (other) log(`checked out ${other}@${(await this.checkoutActionRepo(other, withs, workspace)).slice(0, 7)} into ${String(withs.path)}`);
            else {
              await this.checkout(withs, workspace, token, { sha, ref: String(processEnv.GITHUB_REF) }, processEnv);
              log(`checked out ${gh.owner}/${gh.repoName}@${sha.slice(0, 7)}`);
            }
            if (me.signalled) outcome = 'cancelled';
          } else {
            // This step's command manager: the runner gives each step's handler its own (Handler.cs).
            const stepCommands = new StepCommands({
              output: log,
              annotate,
              addMask: (v) => masks.add(v),
              setOutput: (k, v) => (commandOutputs[k] = v),
              env: processEnv,
              readMatcher: (path) => {
                if (!existsSync(resolve(workspace, path))) throw new Error(`Could not find file '${resolve(workspace, path)}'.`);
                throw new Error(`${path}: the fake runner does not implement problem matchers`);
              },
              record: (c, line) => (job.commands ??= []).push({ ...c, line, step: stepName }),
            });
            const proc = await this.startStep(
              step,
              runCtx,
              processEnv,
              { scriptOwned: handlerEnv('script', services), nodeOwned: handlerEnv('node', services) },
              workspace,
              annotate,
              (line) => {
                if (!stepCommands.process(line)) log(line);
                const switched = TASK_SWITCH.exec(line);
                if (switched) (job.tasks ??= []).push({ task: switched[1]!, at: Date.now() });
                const cp = CHECKPOINT.exec(line);
                if (cp)
                  this.maybeKill(run, job, cp[1]!, () => {
                    lost = true;
                    proc.kill();
                  });
              },
              files.output,
              async (uses, withs, at) => {
                const inner = this.standIn(uses);
                if (!inner) return false;
                const post = await this.playStandIn(inner, uses, withs, { env: at.env, workspace, files: at.files, log, job });
                if (post) posts.push({ uses, ...post });
                return true;
              },
            );
            me.proc = proc;
            // A cancellation that arrived while the step was starting.
            if (me.signalled) proc.cancel(this.cancelScale.get(run.id) ?? this.opts.timeScale);
            const r = await proc.done;
            exitCode = r.code;
            signal = r.signal;
            if (lost || me.signalled) outcome = 'cancelled';
            else if (r.code !== 0) {
              outcome = 'failure';
              annotate('error', `Process completed with exit code ${r.code ?? 1}.`);
            } else if (stepCommands.failed) outcome = 'failure';
          }
        } catch (err) {
          annotate('error', (err as Error).message);
          outcome = 'failure';
          exitCode = 1;
        }
        current = undefined;
        if (outcome === 'cancelled' && !lost && !canceledNoted) {
          canceledNoted = true;
          annotate('error', OPERATION_CANCELED);
        }
        const outputs = lost ? {} : { ...commandOutputs, ...(await readKeyValueFile(files.output)) };
        if (!lost) {
          // Every name but NODE_OPTIONS takes; the runner's own are written over it again in each step's process (env-file-command.ts).
          applyEnvFile(await readKeyValueFile(files.env), env, (m) => annotate('error', m));
          const added = (await readFile(files.path, 'utf8').catch(() => '')).split(/\r?\n/).filter(Boolean);
          for (const p of added) addedPath.unshift(p);
        }
        const summary = await readFile(files.summary, 'utf8').catch(() => '');
        // Over 1 MiB the runner uploads none of the step's summary and logs an error; the step's outcome stands
        // (actions/runner src/Runner.Worker/FileCommandManager.cs, CreateStepSummaryCommand; Constants.Runner.UnsupportedSummarySize; sizes in k by integer division).
        const summaryBytes = Buffer.byteLength(summary, 'utf8');
        if (summaryBytes > 1024 * 1024)
          annotate(
            'error',
            `$GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of 1024k, got ${Math.floor(summaryBytes / 1024)}k. For more information see: https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-markdown-summary`,
          );
        else job.summary += summary;
        job.steps.push({ name: stepName, outcome, exitCode, signal, outputs });
        let continueOnError = false;
        try {
          continueOnError = isTruthy(evaluateValue(step['continue-on-error'] ?? false, sctx) as ExprValue);
        } catch {
          continueOnError = false;
        }
        if (step.id) steps[step.id] = { outputs, outcome, conclusion: continueOnError && outcome === 'failure' ? 'success' : outcome };
        if (outcome === 'failure' && !continueOnError) failed = true;
      }
      // actions/runner runs post steps last, in reverse order, each under its action's `post-if` (success() by default).
      for (const post of posts.reverse()) {
        if (lost || ((failed || cancelled) && !post.always)) continue;
        tag.step = `Post ${post.uses}`;
        stepStarts.push({ name: `Post ${post.uses}`, index: job.log.length });
        try {
          await post.run();
        } catch (err) {
          annotate('warning', `${post.uses} (post): ${(err as Error).message}`);
        }
      }
    } finally {
      orphanCleanup(trackingId);
      clearTimeout(limitTimer);
      liveSet.delete(live);
      siblings.delete(live);
      gh.revokeToken(token);
    }
    job.result = lost || timedOut ? 'failure' : failed ? 'failure' : cancelled ? 'cancelled' : 'success';
    if (lost) {
      // A runner that vanished reports nothing more: no outputs.
      annotate('error', LOST_RUNNER);
    } else {
      const finalCtx: ExprContext = { ...jobCtx, steps, job: { ...scope?.job, status: job.result } };
      for (const [k, v] of Object.entries(spec.outputs ?? {})) {
        let value: string;
        try {
          value = interpolate(String(v), finalCtx);
        } catch (err) {
          annotate('error', `Error when evaluating 'outputs' for job '${id}'. ${(err as Error).message}`);
          continue;
        }
        if ([...masks].some((m) => value.includes(m))) {
          annotate('warning', `Skip output '${k}' since it may contain secret.`);
          continue;
        }
        job.outputs[k] = value;
      }
    }
    job.finishedAt = Date.now();
    const conclusion = job.result === 'success' ? 'success' : job.result === 'cancelled' ? 'cancelled' : 'failure';
    gh.recordJobCheckRun({ runId: run.id, headSha: run.headSha, name: job.name, conclusion, id: checkRun });
    this.recordJob(run, wf, file, job, checkRun, conclusion, stepStarts);
    this.opts.onJobDone?.(run, job);
    return job;
  }

  /**
   * GitHub's record of a job: its steps and its log, the way the Actions API serves them (every line
   * timestamped, each step's lines after its `##[group]Run …`, the runner's annotations as `##[error]`).
   */
  private recordJob(
    run: WorkflowRun,
    wf: WorkflowSpec,
    file: string,
    job: JobRun,
    id: number,
    conclusion: 'success' | 'failure' | 'cancelled' | 'skipped',
    stepStarts: Array<{ name: string; index: number }>,
  ): void {
    // GitHub's log lines carry seven fractional digits: 2026-11-27T10:00:01.1230000Z.
    const stamp = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '0000Z');
    const at = (i: number) => stamp(job.logAt?.[i] ?? job.finishedAt ?? Date.now());
    const lines: string[] = [];
    job.log.forEach((line, i) => {
      for (const s of stepStarts.filter((x) => x.index === i)) lines.push(`${at(i)} ##[group]Run ${s.name}`, `${at(i)} ##[endgroup]`);
      lines.push(`${at(i)} ${line}`);
    });
    for (const s of stepStarts.filter((x) => x.index >= job.log.length)) lines.push(`${stamp(job.finishedAt || Date.now())} ##[group]Run ${s.name}`);
    if (conclusion !== 'skipped') lines.push(`${stamp(job.finishedAt || Date.now())} Cleaning up orphan processes`);
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    this.opts.gh.recordWorkflowJob({
      id,
      runId: run.id,
      runAttempt: run.attempt,
      name: job.name,
      headSha: run.headSha,
      headBranch: this.opts.gh.workflowRuns.get(run.id)?.headBranch ?? '',
      workflowName: this.opts.gh.workflowRuns.get(run.id)?.name ?? wf.name ?? file,
      status: 'completed',
      conclusion,
      startedAt: iso(job.startedAt),
      completedAt: iso(job.finishedAt || Date.now()),
      steps: job.steps.map((s, i) => ({ name: s.name, conclusion: s.outcome, number: i + 1 })),
      log: lines.length ? `${lines.join('\n')}\n` : '',
    });
  }

  private maybeKill(run: WorkflowRun, job: JobRun, name: string, lose: () => void) {
    const kp = this.opts.killPoints?.find(
      (k) =>
        k.job === job.id &&
        k.checkpoint === name &&
        (k.times ?? 1) > 0 &&
        Object.entries(k.matrix ?? {}).every(([key, v]) => String((job.matrix ?? {})[key]) === v) &&
        (k.task === undefined || k.task === currentTask(job)),
    );
    if (!kp) return;
    kp.times = (kp.times ?? 1) - 1;
    job.killedAt = name;
    if (kp.mode === 'lost') lose();
    else this.cancel(run, kp.timeScale);
  }

  private async startStep(
    step: StepSpec,
    ctx: ExprContext,
    env: NodeJS.ProcessEnv,
    /** What the runner writes over a run step's environment (handlerEnv('script', …), already in `env`) and a node action's. */
    { scriptOwned, nodeOwned }: { scriptOwned: Record<string, string>; nodeOwned: Record<string, string> },
    workspace: string,
    annotate: (level: 'error' | 'warning' | 'notice', message: string) => void,
    onLine: (l: string) => void,
    outputFile: string,
    useAction?: Parameters<typeof playComposite>[0]['useAction'],
  ): Promise<StepProcess> {
    if (step.run !== undefined) {
      const script = interpolate(step.run, ctx);
      const cwd = step['working-directory'] ? resolve(workspace, interpolate(step['working-directory'], ctx)) : workspace;
      return startProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, onLine });
    }
    const uses = step.uses!;
    const actionDir = this.actionDir(uses, workspace);
    const metaFile = join(actionDir, 'action.yml');
    if (!existsSync(metaFile))
      throw new Error(
        `Can't find 'action.yml', 'action.yaml' or 'Dockerfile' under '${actionDir}'. Did you forget to run actions/checkout before running your local action?`,
      );
    const meta = parseYaml(await readFile(metaFile, 'utf8')) as ActionMeta;
    const given = (evaluateValue(step.with ?? {}, ctx) ?? {}) as Record<string, unknown>;
    const declared = meta.inputs ?? {};
    const unexpected = Object.keys(given).filter((k) => !(k in declared));
    if (unexpected.length) annotate('warning', `Unexpected input(s) '${unexpected.join("', '")}', valid inputs are ['${Object.keys(declared).join("', '")}']`);
    if (meta.runs?.using === 'composite')
      return playComposite({
        uses,
        actionDir,
        meta,
        given,
        ctx,
        env,
        scriptOwned,
        nodeOwned,
        workspace,
        outputFile,
        annotate,
        onLine,
        ...(useAction ? { useAction } : {}),
      });
    if (!/^node(20|24)$/.test(meta.runs?.using ?? '')) throw new Error(`${uses}: runs.using '${meta.runs?.using}' is not a node runtime`);
    // Every input given reaches the action (undeclared ones too, after the warning), then declared defaults.
    const inputEnv: Record<string, string> = {};
    const inputName = (name: string) => `INPUT_${name.trim().replace(/ /g, '_').toUpperCase()}`;
    for (const [name, v] of Object.entries(given)) if (v !== undefined && v !== null) inputEnv[inputName(name)] = String(v);
    for (const [name, d] of Object.entries(declared)) {
      if (given[name] !== undefined && given[name] !== null) continue;
      // ActionManifestManager.cs: an input without a default is an empty string, `required` or not.
      inputEnv[inputName(name)] = d?.default !== undefined ? interpolate(String(d.default), ctx) : '';
    }
    return startProcess(process.execPath, [join(actionDir, meta.runs.main!)], {
      cwd: workspace,
      env: { ...env, ...inputEnv, ...nodeOwned, GITHUB_ACTION_PATH: actionDir, GITHUB_ACTION_REPOSITORY: uses.split('@')[0] },
      onLine,
    });
  }

  /** The stand-in for `owner/name@ref`, the scenario's own before the built-in setup actions. */
  private standIn(uses: string): StandIn | undefined {
    const name = uses.split('@')[0]!;
    return this.opts.standIns?.[name] ?? setupActionStandIns(this.cache)[name];
  }

  /** Runs a stand-in with the step's files (GITHUB_ENV, GITHUB_PATH, GITHUB_OUTPUT), recording its inputs on the job; its post step, if any. */
  private async playStandIn(
    standIn: StandIn,
    uses: string,
    withs: Record<string, unknown>,
    o: { env: NodeJS.ProcessEnv; workspace: string; files: { env: string; path: string; output: string }; log: (line: string) => void; job: JobRun },
  ): Promise<StandInPost['post']> {
    (o.job.standIns ??= []).push({ uses: uses.split('@')[0]!, with: withs });
    const step: StandInStep = {
      with: withs,
      env: o.env,
      workspace: o.workspace,
      exportVariable: (name, value) => appendFile(o.files.env, `${name}<<CREW_EOF\n${value}\nCREW_EOF\n`),
      addPath: (dir) => appendFile(o.files.path, `${dir}\n`),
      setOutput: (name, value) => appendFile(o.files.output, `${name}<<CREW_EOF\n${value}\nCREW_EOF\n`),
      log: o.log,
      ref: String(o.env.GITHUB_REF ?? ''),
      defaultBranch: this.opts.gh.defaultBranch,
    };
    const left = await standIn(step);
    return left ? left.post : undefined;
  }

  private actionDir(uses: string, workspace: string): string {
    if (uses.startsWith('./')) return resolve(workspace, uses);
    const m = /^[^/]+\/([^@/]+)@.+$/.exec(uses);
    const dir = m ? this.opts.actions[m[1]!] : undefined;
    if (!dir) throw new Error(`Unable to resolve action '${uses}': the offline runner only knows ${Object.keys(this.opts.actions).join(', ')}`);
    return dir;
  }

  /**
   * actions/checkout of another repository (`repository:`): one of the action repositories the runner
   * knows, which it holds at one commit only (actionRepoSnapshot), so `ref` must be that commit's sha
   * (a tag or the caller's sha fails, as a ref the repository does not have would). `path` must stay in
   * the workspace, as actions/checkout requires. The copy is linked in, read-only for the sandbox's user.
   */
  private async checkoutActionRepo(repository: string, withs: Record<string, unknown>, workspace: string): Promise<string> {
    const source = this.opts.actions[repository.split('/')[1] ?? ''];
    if (!source) throw new Error(`fatal: repository '${this.opts.gh.url}/${repository}/' not found`);
    const snapshot = await actionRepoSnapshot(source);
    const want = String(withs.ref ?? '');
    if (want !== snapshot.sha)
      throw new Error(`fatal: reference is not a tree: ${want || '(none)'} (the offline runner holds ${repository} at ${snapshot.sha} only)`);
    const target = resolve(workspace, String(withs.path ?? '.'));
    if (relative(workspace, target).startsWith('..') || target === workspace) throw new Error(`Repository path '${target}' is not under '${workspace}'`);
    await mkdir(dirname(target), { recursive: true });
    await symlink(snapshot.dir, target, 'dir');
    return snapshot.sha;
  }

  /**
   * actions/checkout (v4, src/input-helper.ts and src/ref-helper.ts): with no `ref`, the event's ref at the
   * event's commit, fetched by id onto its tracking branch and checked out as that branch; a `ref` of 40 hex
   * digits, that commit alone, fetched by id and checked out detached; a branch name, the branch fetched by
   * name (a listing of refs first) and checked out. Shallow by default; credentials kept only if asked.
   */
  private async checkout(withs: Record<string, unknown>, workspace: string, token: string, event: { sha: string; ref: string }, env: NodeJS.ProcessEnv) {
    const gh = this.opts.gh;
    const depth = Number(withs['fetch-depth'] ?? 1);
    const auth = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${String(withs.token ?? token)}`).toString('base64')}`;
    const gitEnv = { HOME: String(env.HOME), GIT_TERMINAL_PROMPT: '0' };
    if (existsSync(join(workspace, '.git'))) {
      // A second checkout in the same job reuses the repository, cleaned, like actions/checkout does.
      await tryGit(['config', '--local', '--unset-all', `http.${gh.url}/.extraheader`], { cwd: workspace, env: gitEnv });
      await tryGit(['reset', '--hard', '--quiet'], { cwd: workspace, env: gitEnv });
      await git(['clean', '-ffdx', '--quiet'], { cwd: workspace, env: gitEnv });
      await tryGit(['remote', 'remove', 'origin'], { cwd: workspace, env: gitEnv });
    } else {
      await git(['init', '--quiet', workspace], { env: gitEnv });
    }
    // What `git remote add origin` and `git config http.<url>/.extraheader` write, written straight into
    // .git/config: two fewer processes forked from the test process for every job (docs/PERFORMANCE.md, "Test time").
    const config = join(workspace, '.git', 'config');
    await appendFile(config, `[remote "origin"]\n\turl = ${gh.cloneUrl}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
    const fetchArgs = ['-c', `http.extraheader=${auth}`, 'fetch', '--quiet', '--no-tags', '--prune', ...(depth > 0 ? [`--depth=${depth}`] : [])];
    const given = withs.ref ? String(withs.ref) : undefined;
    const fetchAndCheckout = async (refspec: string, checkout: string[]) => {
      await git([...fetchArgs, 'origin', refspec], { cwd: workspace, env: gitEnv });
      await git(['checkout', '--quiet', '--force', ...checkout], { cwd: workspace, env: gitEnv });
    };
    if (given === undefined) {
      const branch = event.ref.replace(/^refs\/heads\//, '');
      if (branch !== event.ref) await fetchAndCheckout(`+${event.sha}:refs/remotes/origin/${branch}`, ['-B', branch, `refs/remotes/origin/${branch}`]);
      else await fetchAndCheckout(event.sha, [event.sha]);
    } else if (/^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/.test(given)) {
      await fetchAndCheckout(given, [given]);
    } else {
      const branch = given.replace(/^refs\/heads\//, '');
      await fetchAndCheckout(`+refs/heads/${branch}:refs/remotes/origin/${branch}`, ['-B', branch, `refs/remotes/origin/${branch}`]);
    }
    if (String(withs['persist-credentials'] ?? 'true') !== 'false') {
      await appendFile(config, `[http "${gh.url}/"]\n\textraheader = ${auth}\n`);
    }
  }
}

/** The status functions a job's `if:` sees: success() and failure() look at the whole chain of ancestors, as GitHub's do. */
export function statusFunctions(wf: WorkflowSpec, id: string, results: ReadonlyMap<string, { result: JobResult }>, cancelled: () => boolean): StatusFunctions {
  const ancestorResults = ancestorsOf(wf, id).map((n) => results.get(n)!.result);
  return {
    success: () => !cancelled() && ancestorResults.every((r) => r === 'success'),
    failure: () => ancestorResults.some((r) => r === 'failure'),
    cancelled,
    always: () => true,
  };
}

/** A matrix job's result from its legs': any failure fails it, else any cancelled leg cancels it. */
export function jobResultOf(legs: JobResult[]): JobResult {
  return legs.some((r) => r === 'failure') ? 'failure' : legs.some((r) => r === 'cancelled') ? 'cancelled' : 'success';
}

/** A job's matrix legs (`[undefined]` without a matrix); a string is the error GitHub would fail the job with. */
export function matrixLegs(spec: JobSpec, ctx: ExprContext, file: string, id: string): Array<Record<string, unknown> | undefined> | string {
  if (!spec.strategy?.matrix) return [undefined];
  let m: unknown;
  try {
    m = evaluateValue(spec.strategy.matrix, ctx);
  } catch (err) {
    return `Error when evaluating 'strategy' for job '${id}'. ${file}: ${(err as Error).message}`;
  }
  if (!m || typeof m !== 'object' || Array.isArray(m)) return `${file}: jobs.${id}.strategy.matrix: Unexpected value '${JSON.stringify(m)}'`;
  const { include, exclude, ...axes } = m as Record<string, unknown>;
  let legs: Array<Record<string, unknown>> = [{}];
  for (const [key, values] of Object.entries(axes)) {
    if (!Array.isArray(values)) return `${file}: jobs.${id}.strategy.matrix.${key}: Unexpected value '${JSON.stringify(values)}'`;
    if (values.length === 0) return `Error when evaluating 'strategy' for job '${id}'. Matrix vector '${key}' does not contain any values`;
    legs = legs.flatMap((leg) => values.map((v) => ({ ...leg, [key]: v })));
  }
  if (Array.isArray(exclude)) legs = legs.filter((leg) => !exclude.some((ex: Record<string, unknown>) => Object.entries(ex).every(([k, v]) => leg[k] === v)));
  if (Array.isArray(include)) legs.push(...include.filter((x) => x && typeof x === 'object'));
  if (legs.length === 1 && Object.keys(legs[0]!).length === 0) return `Error when evaluating 'strategy' for job '${id}'. Matrix is empty`;
  return legs;
}

/** Every job `id` needs, directly or through other jobs. */
function ancestorsOf(wf: WorkflowSpec, id: string): string[] {
  const seen = new Set<string>();
  const visit = (j: string) => {
    for (const n of needsOf(wf.jobs[j]!)) {
      if (seen.has(n) || !(n in wf.jobs)) continue;
      seen.add(n);
      visit(n);
    }
  };
  visit(id);
  return [...seen];
}

/** How GitHub names a matrix configuration in its messages, e.g. `_1_false` for the leg (1, false). */
function matrixKey(matrix: Record<string, unknown>): string {
  return Object.values(matrix)
    .map((v) => `_${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join('');
}

function legName(spec: JobSpec, id: string, matrix?: Record<string, unknown>): string {
  const base = spec.name ?? id;
  return matrix ? `${base} (${Object.values(matrix).map(String).join(', ')})` : base;
}

/** The crew task a job works on now: the last one it said it went on to, else its matrix leg's. */
function currentTask(job: JobRun): string | undefined {
  return job.tasks?.at(-1)?.task ?? (job.matrix?.task === undefined ? undefined : String(job.matrix.task));
}

/** The workflow names a `workflow_run` trigger lists (`on.workflow_run.workflows`). */
function workflowRunNames(wf: WorkflowSpec): string[] {
  const names = (wf.on.workflow_run as { workflows?: unknown } | null | undefined)?.workflows;
  return Array.isArray(names) ? names.map(String) : typeof names === 'string' ? [names] : [];
}

/** A called workflow, read and checked before the run starts (prepareCall). */
interface Call {
  wf: WorkflowSpec;
  file: string;
  /** `owner/name` of the repository the called file is in, and the commit and ref it was read at. */
  repository: string;
  sha: string;
  ref: string;
  /** The GITHUB_TOKEN permissions the caller job grants: the called jobs get no more. */
  ceiling: Scopes;
}

/** What a called workflow's jobs see differently from the caller's own (runCall). */
interface CallScope {
  /** The caller's github context, which its called jobs see too. */
  github: ExprValue;
  /** `<caller job name> / `, before each called job's name. */
  prefix: string;
  callerId: string;
  inputs: Record<string, ExprValue>;
  secrets: Record<string, string>;
  ceiling: Scopes;
  /** The job context's facts about the file that defines the job (job.workflow_repository, …). */
  job: Record<string, string>;
}

const ACCESS_RANK: Record<Access, number> = { none: 0, read: 1, triage: 1, write: 2, admin: 3 };

/**
 * What a checkout of an action repository holds here: action.yml, the folder of its `runs.main`, and
 * crew's templates and workflows (what crew's action reads at run time, and what crew-jobs.yml's
 * sparse checkout asks for). The rest (sources, tests, node_modules) is left out: a copy per test
 * process must stay cheap.
 */
async function snapshotEntries(source: string): Promise<string[]> {
  const meta = parseYaml(await readFile(join(source, 'action.yml'), 'utf8').catch(() => '')) as { runs?: { main?: string } } | null;
  const main = meta?.runs?.main?.split('/')[0];
  return [...new Set(['action.yml', ...(main ? [main] : []), 'templates', '.github/workflows'])];
}
const snapshots = new Map<string, Promise<{ dir: string; sha: string }>>();

/**
 * Where the snapshots live: one folder per content hash, kept across test processes and runs, so a job's
 * `dist/index.js` (and every chunk it imports) has one path in every test file and Node's compile cache,
 * which is keyed by path, hits from the first job of each file on. A copy per test process compiled the
 * whole bundle cold once per file and added its entries to the cache for good (docs/PERFORMANCE.md, "Test time").
 */
const SNAPSHOTS_NAME = 'crew-action-snapshots';
export const SNAPSHOTS = join(tmpdir(), SNAPSHOTS_NAME);
/**
 * A snapshot is removed, when a new one is made (a new build of dist/), only if no process has touched it for
 * this long and no live process holds it: each process that uses a snapshot leaves a file named by its pid in
 * the snapshot's USERS folder (outside the hashed entries) before it looks at the files, so a process that runs
 * for days, or one that starts on a day-old copy while another prunes, keeps it (pruneSnapshots).
 */
const SNAPSHOT_UNUSED_MS = 24 * 3600_000;
const USERS = '.users';

/**
 * An action repository at "one commit": a copy of its action files and a sha that is the hash of their
 * contents, so `job.workflow_sha` names exactly that copy. A copy, not the folder itself: a job's tools
 * could otherwise write into this checkout's dist/. Made once per test process, shared with any other
 * process (another worktree's tests too) that holds the same files, and checked against its hash before use.
 */
export function actionRepoSnapshot(source: string): Promise<{ dir: string; sha: string }> {
  let p = snapshots.get(source);
  if (!p) snapshots.set(source, (p = snapshotActionRepo(source)));
  return p;
}

/** The hash of an action repository's files (snapshotEntries), in `root`: the source, or a snapshot of it. */
async function snapshotHash(root: string, entries: string[]): Promise<string> {
  const hash = createHash('sha1');
  const walk = async (rel: string): Promise<void> => {
    const full = join(root, rel);
    const found = await readdir(full, { withFileTypes: true }).catch(() => undefined);
    if (!found) {
      if (existsSync(full))
        hash
          .update(`${rel}\0`)
          .update(await readFile(full))
          .update('\0');
      return;
    }
    for (const e of found.sort((a, b) => a.name.localeCompare(b.name))) await walk(join(rel, e.name));
  };
  for (const entry of entries) await walk(entry);
  return hash.digest('hex');
}

/** The snapshot of `source`'s action files, made or checked now (actionRepoSnapshot keeps the answer for the process). */
export async function snapshotActionRepo(source: string): Promise<{ dir: string; sha: string }> {
  // A fixed name in the shared /tmp: used only as a real folder of this user's that no one else can write
  // (ownTempDir), or another user could plant it, a link say, and have its entries pruned or its bundle run.
  ownTempDir(SNAPSHOTS_NAME);
  // Readable by every user, as a checkout in the workspace is: a tool user's `node --test` walks into it.
  await chmod(SNAPSHOTS, 0o755);
  const entries = await snapshotEntries(source);
  const sha = await snapshotHash(source, entries);
  const dir = join(SNAPSHOTS, sha);
  // Marked held by this process, and touched, before it is checked, so a process pruning the copies unused for a
  // day (a new build's) leaves it or, if it moved it aside first, puts it back (pruneSnapshots).
  const there = await holdSnapshot(dir).then(
    () => true,
    (e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
      return false;
    },
  );
  // A copy something wrote into since is moved aside in one step (pruned later) and made again, so no test sees another's leftovers.
  if (there && (await snapshotHash(dir, entries)) !== sha)
    await rename(dir, `${dir}.stale-${randomUUID()}`).catch((e: NodeJS.ErrnoException) => {
      // Gone already: another process moved it aside first.
      if (e.code !== 'ENOENT') throw e;
    });
  if (existsSync(dir)) return { dir, sha };
  await pruneSnapshots();
  const staging = `${dir}.tmp-${process.pid}-${randomUUID()}`;
  for (const entry of entries) if (existsSync(join(source, entry))) await cp(join(source, entry), join(staging, entry), { recursive: true });
  await holdSnapshot(staging);
  // Another process may have made the same copy meanwhile: the first rename wins, both copies are the same files.
  await rename(staging, dir).catch(async (e: NodeJS.ErrnoException) => {
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(dir)) throw e;
    await holdSnapshot(dir);
  });
  return { dir, sha };
}

/** Marks `dir` held by this process (USERS/<pid>) and used now; ENOENT when it is gone (pruned, or moved aside). */
async function holdSnapshot(dir: string): Promise<void> {
  await mkdir(join(dir, USERS), { mode: 0o755 }).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'EEXIST') throw e;
  });
  await writeFile(join(dir, USERS, String(process.pid)), '');
  const now = new Date();
  await utimes(dir, now, now);
}

/** Whether a process is alive (EPERM: another user's, alive too). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A snapshot (or a copy moved aside, or a staging folder) no process touched for a day, and none alive holds. */
async function unusedSnapshot(dir: string, cutoff: number): Promise<boolean> {
  const old = await stat(dir).then(
    (s) => s.mtimeMs < cutoff,
    () => false,
  );
  if (!old) return false;
  const holders = await readdir(join(dir, USERS)).catch(() => [] as string[]);
  return !holders.some((pid) => /^\d+$/.test(pid) && processAlive(Number(pid)));
}

/**
 * Removes the snapshots no one uses (unusedSnapshot). A snapshot is first moved aside in one step, so no process
 * starting after that finds it (it makes a new copy), then looked at again: one a process took up between the
 * first look and the move (it holds and touches before it looks at the files) is put back where it was, or,
 * when a new copy of the same files took its place meanwhile, dropped. `between` runs after the first look, for tests.
 */
export async function pruneSnapshots(between?: (dir: string) => Promise<void>): Promise<void> {
  const cutoff = Date.now() - SNAPSHOT_UNUSED_MS;
  for (const name of await readdir(SNAPSHOTS)) {
    const dir = join(SNAPSHOTS, name);
    if (!(await unusedSnapshot(dir, cutoff))) continue;
    await between?.(dir);
    const claimed = `${dir}.prune-${randomUUID()}`;
    const moved = await rename(dir, claimed).then(
      () => true,
      () => false, // gone: another process pruned it first
    );
    if (!moved) continue;
    if (await unusedSnapshot(claimed, cutoff)) await rm(claimed, { recursive: true, force: true });
    else await rename(claimed, dir).catch(() => rm(claimed, { recursive: true, force: true }));
  }
}
