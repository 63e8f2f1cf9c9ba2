import { join } from 'node:path';
import { buildModel as buildProviderModel, roleSaying, type ModelSetupProblem } from './adapters/anthropic/build-model';
import { checkoutOrEmpty, gitRepo } from './adapters/git/git-repo';
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
import { cancellation } from './job-cancellation';
import { createClient } from './adapters/github/octokit';
import { systemClock } from './clock';
import { CONFIG_PATH, parseConfig, type Config } from './config/schema';
import { defaultBranchFiles } from './default-branch';
import { publicRepository, readEvent, type CrewEvent } from './event';
import { preloadTemplates, promptTemplate } from './templates';
import { preloadBundleChunks } from './bundle';
import { endSoonAfterStep } from './end-after-step';
import type { Log, Model, ModelFailover, RateLimitWait } from './ports';
import { maskCrewEnv, readSettings, type Settings } from './settings';
import { redactingStore } from './state/redacting-store';
import { pendingPlanCommentStore } from './state/pending-plan-comment';
import { jobId, recordingJobTimes, type BilledJob } from './state/job-times';
import { CrewError, type StepContext } from './steps/context';
import { withPlanCommentSync } from './steps/plan-comment/sync';
import { runJob } from './steps/run-job';
import { loadingStep } from './steps/dispatch';
import { addSecret, redact } from './text/redact';
import { inertLog } from './text/inert-log';
import * as core from './adapters/runner/workflow-commands';
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
 * The Model port (adapters/anthropic/build-model.ts) with the `anthropic_api_key` input, or Bedrock / Vertex AI with the
 * credentials the official auth actions left in the job's environment; whatever is missing is named, with what to do.
 */
function buildModel(settings: Settings, config: Config, readConfig: () => Promise<Config>, failovers: ModelFailover[]): Model {
  const problem = (p: ModelSetupProblem) => {
    const as = roleSaying(p);
    if (p.kind === 'provider-setup') return new CrewError('starting the agents', `${as}${p.missing}`, p.fix);
    return new CrewError(
      'starting the agents',
      as
        ? `${as}the \`anthropic_api_key\` input is empty, so crew cannot call its fallback.`
        : 'The `anthropic_api_key` input is empty, so crew cannot call the model.',
      `Add a repository secret named \`ANTHROPIC_API_KEY\` (Settings → Secrets and variables → Actions) and pass it to crew as \`anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}\`, as the README's workflow does. Then comment \`/crew run\` again. ${as ? '(Or remove `fallback_provider`.)' : '(To use Amazon Bedrock or Vertex AI instead, set `provider`: see the README.)'}`,
    );
  };
  const retryWaitMs = async () => (await readConfig()).api_retry_wait_seconds * 1000;
  return buildProviderModel(config, { anthropicKey: settings.anthropicApiKey, log, retryWaitMs, problem }, failovers);
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
  const { repo, remote, objects } = gitRepo(checkout.dir, remoteUrl, settings.githubToken, undefined, THROWAWAY_CHECKOUT, checkout.pin, tips);
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
  const files = defaultBranchFiles({
    defaultBranch: () => forge.defaultBranch(),
    checkedOut: checkout.checkedOut,
    repo,
    remote,
    viaApi: (path, ref) => repositoryFileAt(client, { owner, repo: name }, path, ref),
    workflowFile,
    jobName: process.env.GITHUB_JOB ?? settings.step,
    startedAt: JOB_STARTED_AT,
    warn: (m) => log.warn(m),
  });
  let model: Model | undefined;
  const failovers: ModelFailover[] = [];
  ctx = withPlanCommentSync({
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
        (loadedConfig = parseConfig(await files.read(CONFIG_PATH), CONFIG_PATH, {
          provider: settings.provider,
          fallbackProvider: settings.fallbackProvider,
        })))();
      return config;
    },
    readDefaultBranchFile: files.read,
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
    cancellation: cancellation(settings.step, log),
    job,
    jobLimit: files.jobLimit,
    ciWorkflows: files.ciWorkflows,
    output: (k, v) => core.setOutput(k, v),
    summary: (md) => core.appendSummary(redact(md)),
  });
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
    // Settled before anything else runs; a chunk that failed to load fails the step below, with a failure comment.
    const chunks = preloadBundleChunks(process.env.GITHUB_WORKSPACE);
    await chunks.catch(() => undefined);
    await preloadTemplates();
    const settings = readSettings(core.getInput);
    // Only this job's step is loaded (steps/dispatch.ts), starting now; it runs inside the job's lifecycle.
    const step = loadingStep(settings.step, chunks);
    protectCloudCredentials();
    addSecret(settings.githubToken);
    addSecret(settings.anthropicApiKey);
    if (settings.anthropicApiKey) core.setSecret(settings.anthropicApiKey);
    // Before anything is logged: the repository's own secrets (crew_env), masked in the job log and redacted everywhere else.
    maskCrewEnv(settings.crewEnv, core.setSecret);
    const built = buildContext(settings, readEvent());
    ctx = built.ctx;
    finishTrajectories = built.finish;
    // The job's lifecycle (steps/run-job.ts): the step, its failure reported, the plan comment settled.
    await runJob(ctx, step);
  } catch (error) {
    core.setFailed(inertLog(redact(error instanceof Error ? error.message : String(error))));
  } finally {
    await finishTrajectories?.().catch((e: unknown) => log.warn(`could not keep this job's trajectories: ${e instanceof Error ? e.message : String(e)}`));
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
