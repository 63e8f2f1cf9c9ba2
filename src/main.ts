import * as core from '@actions/core';
import { join } from 'node:path';
import { AnthropicModel } from './adapters/anthropic/model';
import { FailoverModel } from './adapters/anthropic/failover';
import { checkoutOrEmpty, gitRepo } from './adapters/git/git-repo';
import { providerClient, ProviderSetupError } from './adapters/anthropic/providers';
import { THROWAWAY_CHECKOUT } from './adapters/git/git-client';
import { GitStateStore } from './adapters/git/state-store';
import { BranchTips } from './adapters/git/branch-tips';
import { fitBodies } from './adapters/fit-bodies';
import { GitHubForge } from './adapters/github/forge';
import { GitHubCrewBranches } from './adapters/github/crew-branches';
import { repositoryFileAt } from './adapters/github/repository-files';
import { GitHubRepositorySettings } from './adapters/github/repository-settings';
import { GITHUB } from './domain/surface';
import { githubBranches, STATE_BRANCH } from './domain/refs';
import { killRunningCommands } from './sandbox/command-runner';
import { createClient } from './adapters/github/octokit';
import { systemClock } from './clock';
import { CONFIG_PATH, parseConfig, type Config } from './config/schema';
import { callsCrewJobs, CREW_JOBS_FILE, GITHUB_DEFAULT_JOB_MINUTES, readJobTimeout, SHIPPED_WORK_JOB_MINUTES } from './config/job-limit';
import { readCiWorkflows } from './config/ci-workflows';
import { publicRepository, readEvent, type CrewEvent } from './event';
import { preloadTemplates, promptTemplate } from './templates';
import { preloadBundleChunks, readOwnFile } from './bundle';
import { endSoonAfterStep } from './end-after-step';
import type { Log, Model, ModelFailover, RateLimitWait } from './ports';
import { fallbackModelFor, type Provider } from './domain/providers';
import { readSettings, type Settings } from './settings';
import { redactingStore } from './state/redacting-store';
import { pendingPlanCommentStore } from './state/pending-plan-comment';
import { jobId, recordingJobTimes, type BilledJob } from './state/job-times';
import { CrewError, recordHeldPlanComments, syncPlanComment, unnotedFailovers, withPlanChecksAtEnd, type StepContext } from './steps/context';
import { reportFailure } from './steps/report-failure';
import { STEPS } from './steps/dispatch';
import { addSecret, redact } from './text/redact';
import { inertLog } from './text/inert-log';
import { abandonedUploads, artifactsAvailable, uploadArtifact } from './adapters/artifact/upload';
import { githubTrajectories } from './trajectory/github';
import { secureCloudCredentials } from './sandbox/cloud-credentials';

/** When this job's crew step started: close to the job's own start (checkout takes seconds; the save margin covers them). */
const JOB_STARTED_AT = Date.now();

/** How long anything left open after the step may keep the job's process (end-after-step.ts). */
const LAST_STEP_GRACE_MS = 5_000;

const log: Log = {
  info: (m) => core.info(inertLog(redact(m))),
  warn: (m) => core.warning(inertLog(redact(m))),
  checkpoint: (name) => core.info(inertLog(`crew checkpoint: ${name}`)),
};

function env(name: string): string {
  const v = process.env[name];
  if (!v)
    throw new CrewError(
      'startup',
      `the environment variable ${name} is not set; crew must run inside a GitHub Actions job.`,
      "Use the workflow from crew's README.",
    );
  return v;
}

/** A user's token (classic, fine-grained, OAuth, or an App acting for a user) or an installation's (`ghs_`). */
export function tokenKind(token: string): 'installation' | 'personal' {
  return /^(ghp_|github_pat_|gho_|ghu_)/.test(token) ? 'personal' : 'installation';
}

/**
 * GitHub cancels a job with SIGINT, then SIGTERM 7.5 s later, then a kill. The work
 * step stops its worker at the next safe point and saves the work so far (see
 * steps/interruption.ts); SIGTERM only logs, so that saving is not cut short. Other
 * steps keep Node's default: they are short, and every step is safe to repeat.
 */
function cancellation(step: Settings['step']): AbortSignal | undefined {
  if (step !== 'work') return undefined;
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) return;
    log.warn('crew received SIGINT: the workflow run is being cancelled; the worker stops at its next safe point and its work so far is saved');
    controller.abort();
    // A command runs in its own process group, out of the runner's reach: stop it, or the save waits for it past the kill.
    killRunningCommands();
  });
  process.on('SIGTERM', () => log.warn('crew received SIGTERM; still saving the work so far'));
  return controller.signal;
}

/**
 * The Model port over one provider: the Claude API with the `anthropic_api_key` input, or Amazon
 * Bedrock / Vertex AI through Anthropic's SDKs for them, with the credentials the official auth
 * actions left in the job's environment. Whatever is missing is named, with what to do; `role`
 * says which key asked for it (`provider` or `fallback_provider`).
 */
function providerModel(provider: Provider, role: 'provider' | 'fallback_provider', settings: Settings, config: Config, retryWaitMs: () => Promise<number>) {
  const as = role === 'provider' ? '' : `\`fallback_provider\` is ${provider}, but `;
  if (provider === 'anthropic') {
    if (!settings.anthropicApiKey) {
      throw new CrewError(
        'starting the agents',
        as
          ? `${as}the \`anthropic_api_key\` input is empty, so crew cannot call its fallback.`
          : 'The `anthropic_api_key` input is empty, so crew cannot call the model.',
        `Add a repository secret named \`ANTHROPIC_API_KEY\` (Settings → Secrets and variables → Actions) and pass it to crew as \`anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}\`, as the README's workflow does. Then comment \`/crew run\` again. ${as ? '(Or remove `fallback_provider`.)' : '(To use Amazon Bedrock or Vertex AI instead, set `provider`: see the README.)'}`,
      );
    }
    return new AnthropicModel(settings.anthropicApiKey, systemClock, log, { retryWaitMs });
  }
  try {
    return new AnthropicModel(providerClient(provider, config), systemClock, log, { retryWaitMs });
  } catch (e) {
    if (e instanceof ProviderSetupError) throw new CrewError('starting the agents', `${as}${e.missing}`, e.fix);
    throw e;
  }
}

/**
 * The Model port for the provider in force, and with `fallback_provider` the failover over it and
 * the fallback (both set up, and their setup checked, before the first call). Each failover of the
 * job is added to `failovers`, which the plan comment reports.
 */
function buildModel(settings: Settings, config: Config, readConfig: () => Promise<Config>, failovers: ModelFailover[]): Model {
  const retryWaitMs = async () => (await readConfig()).api_retry_wait_seconds * 1000;
  const primary = providerModel(config.provider, 'provider', settings, config, retryWaitMs);
  if (config.provider !== 'anthropic') log.info(`crew calls the model through ${primary.label}`);
  if (!config.fallback) return primary;
  const fallback = providerModel(config.fallback.provider, 'fallback_provider', settings, config, retryWaitMs);
  log.info(`if ${primary.label} stays overloaded or rate-limited past its retries, crew goes on with ${fallback.label} (fallback_provider)`);
  return new FailoverModel(primary, fallback, fallbackModelFor(config.models, config.fallback.models), systemClock, log, (f) => failovers.push(f));
}

function buildContext(settings: Settings, event: CrewEvent): { ctx: StepContext; finish: () => Promise<void> } {
  const [owner, name] = env('GITHUB_REPOSITORY').split('/') as [string, string];
  const server = env('GITHUB_SERVER_URL');
  const remoteUrl = `${server}/${owner}/${name}.git`;
  const workflowFile = (process.env.GITHUB_WORKFLOW_REF ?? '').replace(/@.*$/, '').split('/').pop() || 'crew.yml';
  const runId = env('GITHUB_RUN_ID');
  let ctx: StepContext | undefined;
  const waits: RateLimitWait[] = [];
  const client = createClient(settings.githubToken, log, { onRateLimit: (w) => waits.push(w) });
  const github = new GitHubForge(
    client,
    {
      owner,
      repo: name,
      serverUrl: server,
      runId,
      workflowFile,
      tokenKind: tokenKind(settings.githubToken),
      defaultBranch: event.defaultBranch,
      configuredLogin: async () => (await ctx!.config()).bot_login,
      rateLimitWaits: () => waits,
      tokenReadsOnlyThisRepository: settings.githubTokenIsWorkflows,
    },
    log,
  );
  const forge = fitBodies(github, github.branchLink(STATE_BRANCH));
  // One listing of the run's branches serves the state store's read and the checkout's fetch.
  const tips = new BranchTips();
  const checkout = checkoutOrEmpty(env('GITHUB_WORKSPACE'), join(env('RUNNER_TEMP'), 'crew-no-checkout'));
  const { repo, remote, objects } = gitRepo(checkout.dir, remoteUrl, settings.githubToken, undefined, THROWAWAY_CHECKOUT, undefined, tips);
  const job: BilledJob = {
    id: jobId({ runId, attempt: process.env.GITHUB_RUN_ATTEMPT, job: process.env.GITHUB_JOB ?? settings.step, task: settings.task }),
    step: settings.step,
    ...(settings.task ? { task: settings.task } : {}),
    startedAt: JOB_STARTED_AT,
  };
  // Every write also records this job's start and that write's time, for the run's billable minutes.
  // The plan comment's id rides in the run's next write (#31 §4): outermost, so the write that carries it is redacted and billed like any.
  const { store: state, ids: planCommentIds } = pendingPlanCommentStore(
    recordingJobTimes(
      redactingStore(new GitStateStore(join(env('RUNNER_TEMP'), 'crew-state'), remoteUrl, settings.githubToken, systemClock, log, tips, objects)),
      job,
      () => systemClock.now(),
    ),
  );
  let config: Promise<Config> | undefined;
  let loadedConfig: Config | undefined;
  let defaultRef: Promise<string> | undefined;
  /**
   * A commit of the default branch to read configuration and templates from. The
   * event's own commit when the job runs on the default branch (comment and crew's
   * dispatches do), so no fetch is needed; otherwise the branch is fetched.
   */
  /** The event's commit when the job runs on the default branch (comments and crew's dispatches do); otherwise the branch. */
  const defaultRevision = async (): Promise<{ sha: string } | { branch: string }> => {
    const branch = await forge.defaultBranch();
    const sha = process.env.GITHUB_SHA;
    return sha && process.env.GITHUB_REF === `refs/heads/${branch}` ? { sha } : { branch };
  };
  const defaultBranchRef = () =>
    (defaultRef ??= (async () => {
      const at = await defaultRevision();
      // The event's commit; actions/checkout of the branch has only its tip, which may have moved on since the
      // event (a re-run of the job, or a merge while it queued): then the commit is fetched by id.
      if ('sha' in at) {
        await remote.fetchCommit(at.sha);
        return at.sha;
      }
      await remote.fetch([at.branch]);
      return remote.tracking(at.branch);
    })());
  // A job with no checkout of the repository (the reusable workflow's merge and cleanup jobs need no working tree)
  // reads the few files it needs through the contents API: one request each instead of a checkout's two (#31 §4).
  const readDefaultBranchFile = async (path: string): Promise<string | undefined> => {
    if (checkout.checkedOut) return repo.readFileAt(await defaultBranchRef(), path);
    const at = await defaultRevision();
    return repositoryFileAt(client, { owner, repo: name }, path, 'sha' in at ? at.sha : at.branch);
  };
  // crew's own workflow file as the default branch has it (crew's jobs run from there), never a branch under work.
  const workflowPath = (process.env.GITHUB_WORKFLOW_REF ?? '').replace(/@.*$/, '').split('/').slice(2).join('/') || `.github/workflows/${workflowFile}`;
  let ownWorkflowText: Promise<string | undefined> | undefined;
  const ownWorkflow = () => (ownWorkflowText ??= readDefaultBranchFile(workflowPath).catch(() => undefined));
  let model: Model | undefined;
  const failovers: ModelFailover[] = [];
  ctx = {
    settings,
    event,
    forge,
    repo,
    remote,
    crewBranches: new GitHubCrewBranches(remote, client, { owner, repo: name }),
    repositorySettings: new GitHubRepositorySettings(client, { owner, repo: name }, server),
    state,
    planCommentIds,
    branches: githubBranches,
    surface: GITHUB,
    clock: systemClock,
    log,
    runId,
    config() {
      // Configuration always comes from the default branch, never from a branch under work.
      // The `provider` and `fallback_provider` inputs, when set, replace the file's keys (and with them the tiers' default model ids).
      config ??= (async () =>
        (loadedConfig = parseConfig(await readDefaultBranchFile(CONFIG_PATH), CONFIG_PATH, {
          provider: settings.provider,
          fallbackProvider: settings.fallbackProvider,
        })))();
      return config;
    },
    readDefaultBranchFile,
    async template(name) {
      return promptTemplate(name, await this.config(), this.readDefaultBranchFile);
    },
    model() {
      if (model) return model;
      // Steps read the configuration before they call a model, so it is usually known here and a setup
      // problem is thrown at once; otherwise the first request waits for it.
      if (loadedConfig) return (model = buildModel(settings, loadedConfig, () => ctx!.config(), failovers));
      let built: Model | undefined;
      const lazy: Model = {
        complete: async (req) => {
          built ??= buildModel(settings, await ctx!.config(), () => ctx!.config(), failovers);
          return built.complete(req);
        },
      };
      return (model = lazy);
    },
    modelFailovers: () => failovers,
    cancellation: cancellation(settings.step),
    job,
    async jobLimit() {
      // The workflow file as the default branch has it (crew's jobs run from there), never a branch under work.
      const text = await ownWorkflow();
      // The short form holds no crew job: they are in crew-jobs.yml, at the commit this action runs from.
      const called = callsCrewJobs(text);
      const read = called
        ? readJobTimeout(readOwnFile(CREW_JOBS_FILE), process.env.GITHUB_JOB ?? settings.step, `crew's ${CREW_JOBS_FILE}`)
        : readJobTimeout(text, process.env.GITHUB_JOB ?? settings.step, workflowPath);
      // A GitHub-hosted job stops after 6 hours whatever the file says (docs: "Usage limits").
      const cap = process.env.RUNNER_ENVIRONMENT === 'github-hosted' ? GITHUB_DEFAULT_JOB_MINUTES : Infinity;
      const where = called ? { calledWorkflow: true } : {};
      return 'minutes' in read
        ? { minutes: Math.min(read.minutes, cap), startedAt: JOB_STARTED_AT, ...where }
        : { minutes: SHIPPED_WORK_JOB_MINUTES, startedAt: JOB_STARTED_AT, unreadable: read.unreadable, ...where };
    },
    ciWorkflows: async () => readCiWorkflows(await ownWorkflow(), workflowPath),
    output: (k, v) => core.setOutput(k, v),
    summary: async (md) => {
      await core.summary.addRaw(redact(md)).write();
    },
  };
  const trajectories = jobTrajectories(ctx, github, () => loadedConfig, runId);
  ctx.trajectories = trajectories.recorder;
  ctx.jobLink = trajectories.jobLink;
  return { ctx, finish: trajectories.finish };
}

/**
 * The job's trajectories (docs/trajectories.md): each agent turn a group in this log, each agent
 * run a row of the step summary, and the records an artifact kept `transcripts.retention_days`.
 */
function jobTrajectories(ctx: StepContext, github: GitHubForge, config: () => Config | undefined, runId: string) {
  const { settings } = ctx;
  // GitHub names a matrix leg by its values: the work job of t1 is "work (t1)".
  const jobName = settings.step === 'work' && settings.task ? `work (${settings.task})` : (process.env.GITHUB_JOB ?? settings.step);
  let jobUrl: string | null = null;
  let lookup: Promise<string | null> | undefined;
  const jobLink = () => (lookup ??= github.jobLink(jobName).then((u) => (jobUrl = u)));
  const runAttempt = Number(process.env.GITHUB_RUN_ATTEMPT ?? '1') || 1;
  let saidNoArtifacts = false;
  const { recorder, finish } = githubTrajectories({
    level: () => config()?.transcripts.keep ?? 'full',
    working: () => ctx.working ?? (settings.issue && settings.run ? { issue: settings.issue, run: settings.run } : undefined),
    job: { step: settings.step, id: ctx.job?.id ?? settings.step, url: () => jobUrl, workflowRun: runId, runAttempt },
    now: () => Date.now(),
    publicRepository: publicRepository(),
    io: {
      group(title, lines) {
        core.startGroup(inertLog(redact(title)));
        for (const l of lines) core.info(inertLog(redact(l)));
        core.endGroup();
      },
      upload: async (name, files) => {
        if (!artifactsAvailable(process.env.GITHUB_SERVER_URL)) {
          if (!saidNoArtifacts)
            log.info(
              `${process.env.GITHUB_SERVER_URL} keeps no artifacts for actions (GitHub Enterprise Server): this job's trajectories are in its log and step summary only`,
            );
          saidNoArtifacts = true;
          return null;
        }
        return uploadArtifact(
          { dir: join(env('RUNNER_TEMP'), 'crew-trajectories'), runPage: github.runLink(), retentionDays: config()?.transcripts.retention_days ?? 30 },
          name,
          files,
        );
      },
      summary: (md) => ctx.summary(md),
      warn: (m) => log.warn(m),
    },
  });
  return {
    // A work job's own page is looked up once, when its worker starts, beside the worker's work: the plan comment links
    // each task to it. Other jobs spare the request (their records name the workflow run and the step).
    recorder: {
      start: (meta: Parameters<typeof recorder.start>[0]) => {
        if (settings.step === 'work') void jobLink();
        return recorder.start(meta);
      },
      publish: (label: string) => recorder.publish(label),
    },
    jobLink,
    finish,
  };
}

/** The action's entry: read the inputs and the event, run one step, and turn any failure into a visible comment. */
export async function run(): Promise<void> {
  let ctx: StepContext | undefined;
  let finishTrajectories: (() => Promise<void>) | undefined;
  try {
    await preloadBundleChunks(process.env.GITHUB_WORKSPACE);
    await preloadTemplates();
    const settings = readSettings();
    // Only this job's step is loaded (steps/dispatch.ts), at once, like the chunks above.
    const step = await STEPS[settings.step]();
    protectCloudCredentials();
    addSecret(settings.githubToken);
    addSecret(settings.anthropicApiKey);
    if (settings.anthropicApiKey) core.setSecret(settings.anthropicApiKey);
    // Before anything is logged: the repository's own secrets (crew_env), masked in the job log and redacted everywhere else.
    for (const value of Object.values(settings.crewEnv ?? {})) {
      addSecret(value);
      if (value) core.setSecret(value);
    }
    const built = buildContext(settings, readEvent());
    ctx = built.ctx;
    finishTrajectories = built.finish;
    const c = ctx;
    await withPlanChecksAtEnd(c, () => step(c));
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (ctx) await reportFailure(ctx, error);
    core.setFailed(inertLog(redact(text)));
  } finally {
    if (ctx) {
      await recordHeldPlanComments(ctx);
      await finishTrajectories?.().catch((e: unknown) => log.warn(`could not keep this job's trajectories: ${e instanceof Error ? e.message : String(e)}`));
      await noteLateFailover(ctx);
      await summarizeRateLimits(ctx);
      await summarizeFailovers(ctx);
    }
    // An upload crew gave up on still holds its sockets open: the job would otherwise wait for them until timeout-minutes.
    if (abandonedUploads() > 0) process.exit();
    endSoonAfterStep(LAST_STEP_GRACE_MS, (m) => log.warn(m));
  }
}

/**
 * Before anything else: credentials files the auth actions wrote into the workspace move where only
 * crew's user can read them, and every cloud secret in the environment is redacted and masked.
 */
function protectCloudCredentials(): void {
  const workspace = process.env.GITHUB_WORKSPACE;
  const temp = process.env.RUNNER_TEMP;
  if (!workspace || !temp) return;
  const secured = secureCloudCredentials(process.env, workspace, join(temp, 'crew-credentials'));
  for (const s of secured.secrets) {
    addSecret(s);
    core.setSecret(s);
  }
  for (const m of secured.moved) log.info(`moved the credentials file ${m.from} out of the workspace, where agents and commits cannot reach it`);
}

/** A failover after the step's last plan-comment sync (a model call at its very end) still reaches the plan comment. */
async function noteLateFailover(ctx: StepContext): Promise<void> {
  const { issue, run } = ctx.settings;
  if (!issue || !run || !unnotedFailovers(ctx)) return;
  try {
    await syncPlanComment(ctx, issue, run);
  } catch (e) {
    log.warn(`could not note the failover in the plan comment: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The job summary says where this job's model calls went when the primary provider hit a limit. */
async function summarizeFailovers(ctx: StepContext): Promise<void> {
  const failovers = ctx.modelFailovers?.() ?? [];
  if (!failovers.length) return;
  const lines = failovers.map((f) => `- ${f.at.slice(11, 19)} UTC: ${f.from} was ${f.reason} past its retries; crew went on with ${f.to}.`);
  try {
    await ctx.summary(`### Model failover\n\n${lines.join('\n')}\n`);
  } catch (e) {
    log.warn(`could not write the job summary: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The job summary lists every wait GitHub's rate limits imposed, as the job log does. */
async function summarizeRateLimits(ctx: StepContext): Promise<void> {
  const waits = ctx.forge.rateLimitWaits();
  if (!waits.length) return;
  const lines = waits.map(
    (w) =>
      `- ${w.at.slice(11, 19)} UTC: waited ${w.seconds} s for GitHub's ${w.kind === 'primary' ? 'rate limit' : 'secondary rate limit'} (${w.request.replace(/^(\S+) https?:\/\/[^/]+/, '$1 ')})`,
  );
  try {
    await ctx.summary(
      `### GitHub rate limits\n\nGitHub rate-limited this job ${waits.length} time${waits.length === 1 ? '' : 's'}; crew waited and carried on.\n\n${lines.join('\n')}\n`,
    );
  } catch (e) {
    log.warn(`could not write the job summary: ${e instanceof Error ? e.message : String(e)}`);
  }
}
