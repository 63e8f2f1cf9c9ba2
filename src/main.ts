import * as core from '@actions/core';
import { join } from 'node:path';
import { AnthropicModel } from './adapters/anthropic/model';
import { GitRepo } from './adapters/git/git-repo';
import { GitStateStore } from './adapters/git/state-store';
import { fitBodies } from './adapters/fit-bodies';
import { GitHubForge } from './adapters/github/forge';
import { STATE_BRANCH } from './domain/refs';
import { createClient } from './adapters/github/octokit';
import { systemClock } from './clock';
import { CONFIG_PATH, parseConfig, type Config } from './config/schema';
import { readEvent, type CrewEvent } from './event';
import { loadTemplate } from './templates';
import type { Log, Model } from './ports';
import { failureComment } from './render/messages';
import { readSettings, type Settings } from './settings';
import { advance } from './steps/advance';
import { critic } from './steps/critic';
import { merge } from './steps/merge';
import { CrewError, failRun, syncPlanComment, type StepContext } from './steps/context';
import { route } from './steps/route';
import { work } from './steps/work';
import { addSecret, redact } from './text/redact';

const log: Log = {
  info: (m) => core.info(redact(m)),
  warn: (m) => core.warning(redact(m)),
  checkpoint: (name) => core.info(`crew checkpoint: ${name}`),
};

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new CrewError('startup', `the environment variable ${name} is not set; crew must run inside a GitHub Actions job.`, 'Use the workflow from crew\'s README.');
  return v;
}

function tokenKind(token: string): 'actions' | 'personal' {
  return /^(ghp_|github_pat_|gho_)/.test(token) ? 'personal' : 'actions';
}

function buildContext(settings: Settings, event: CrewEvent): StepContext {
  const [owner, name] = env('GITHUB_REPOSITORY').split('/') as [string, string];
  const server = env('GITHUB_SERVER_URL');
  const remoteUrl = `${server}/${owner}/${name}.git`;
  const workflowFile = (process.env.GITHUB_WORKFLOW_REF ?? '').replace(/@.*$/, '').split('/').pop() || 'crew.yml';
  const runId = env('GITHUB_RUN_ID');
  let ctx: StepContext | undefined;
  const github = new GitHubForge(
    createClient(settings.githubToken, log),
    { owner, repo: name, serverUrl: server, runId, workflowFile, tokenKind: tokenKind(settings.githubToken), defaultBranch: event.defaultBranch, configuredLogin: async () => (await ctx!.config()).bot_login },
    log,
  );
  const forge = fitBodies(github, github.branchLink(STATE_BRANCH));
  const repo = new GitRepo(env('GITHUB_WORKSPACE'), remoteUrl, settings.githubToken);
  const state = new GitStateStore(join(env('RUNNER_TEMP'), 'crew-state'), remoteUrl, settings.githubToken, systemClock, log);
  let config: Promise<Config> | undefined;
  let defaultRef: Promise<string> | undefined;
  /**
   * A commit of the default branch to read configuration and templates from. The
   * event's own commit when the job runs on the default branch (comment and crew's
   * dispatches do), so no fetch is needed; otherwise the branch is fetched.
   */
  const defaultBranchRef = () =>
    (defaultRef ??= (async () => {
      const branch = await forge.defaultBranch();
      const sha = process.env.GITHUB_SHA;
      if (sha && process.env.GITHUB_REF === `refs/heads/${branch}`) return sha;
      await repo.fetch([branch]);
      return `refs/remotes/origin/${branch}`;
    })());
  let model: Model | undefined;
  ctx = {
    settings,
    event,
    forge,
    repo,
    state,
    clock: systemClock,
    log,
    runId,
    config() {
      // Configuration always comes from the default branch, never from a branch under work.
      config ??= (async () => parseConfig(await repo.readFileAt(await defaultBranchRef(), CONFIG_PATH)))();
      return config;
    },
    readDefaultBranchFile: async (path) => repo.readFileAt(await defaultBranchRef(), path),
    async template(name) {
      const cfg = await this.config();
      const override = await repo.readFileAt(await defaultBranchRef(), `${cfg.templates_dir.replace(/\/+$/, '')}/${name}.md`);
      const base = override?.trim() || (await loadTemplate(name));
      return cfg.prompts.append_system_prompt ? `${base}\n\n${cfg.prompts.append_system_prompt}` : base;
    },
    model() {
      if (!settings.anthropicApiKey) {
        throw new CrewError('starting the agents', 'The `anthropic_api_key` input is empty, so crew cannot call the model.', 'Add a repository secret named `ANTHROPIC_API_KEY` (Settings → Secrets and variables → Actions) and pass it to crew as `anthropic_api_key: ${{ secrets.ANTHROPIC_API_KEY }}`, as the README\'s workflow does. Then comment `/crew run` again.');
      }
      model ??= new AnthropicModel(settings.anthropicApiKey, systemClock, log);
      return model;
    },
    output: (k, v) => core.setOutput(k, v),
    summary: async (md) => {
      await core.summary.addRaw(redact(md)).write();
    },
  };
  return ctx;
}

/** Where a failure should be reported: the issue, and the run if one is known. */
function failureTarget(ctx: StepContext): { issue?: number; run?: number } {
  if (ctx.settings.issue) return { issue: ctx.settings.issue, run: ctx.settings.run };
  if (ctx.event.kind === 'comment') return { issue: ctx.event.issue.number };
  // The merge gate failing is reported on the run's issue (found from the PR's head) when it can be.
  if (ctx.event.kind === 'pull') {
    const head = ctx.event.pulls.map((p) => /^crew\/(\d+)\/r\d+\/integration$/.exec(p.headRef)).find(Boolean);
    return head ? { issue: Number(head[1]) } : {};
  }
  // A dispatch names its issue; the run is left as it is, so `/crew resume` can carry on once the cause is fixed.
  const issue = Number(ctx.event.inputs.issue);
  return Number.isInteger(issue) && issue > 0 ? { issue } : {};
}

async function reportFailure(ctx: StepContext, error: unknown): Promise<void> {
  const crew = error instanceof CrewError ? error : undefined;
  const step = crew?.step ?? `the ${ctx.settings.step} step`;
  const message = crew?.message ?? `an unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  const { issue, run } = failureTarget(ctx);
  if (!issue) return;
  const tryIt = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (e) {
      log.warn(`could not ${what}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  // crew failed, not the work: the run keeps the phase it was in, and `/crew resume` carries on from there.
  let resumable = false;
  if (run) {
    await tryIt('record the failure in the run state', async () => (resumable = await failRun(ctx, issue, run, step, message.split('\n')[0]!, { resumable: true })));
    await tryIt('update the plan comment', () => syncPlanComment(ctx, issue, run));
  }
  const resumeHint = 'comment `/crew resume` to carry on from where the run stopped, or `/crew run` to start afresh.';
  const next = crew
    ? `${crew.next}${resumable && !crew.next.includes('/crew ') ? ` Then ${resumeHint}` : ''}`
    : resumable
      ? `Check the workflow log for details. Once the cause is fixed (or if it was a passing fault), ${resumeHint}`
      : 'Check the workflow log for details, then comment `/crew run` to try again.';
  await tryIt('post the failure comment', () => ctx.forge.postComment(issue, failureComment(step, message, ctx.forge.runLink(), next)));
}

/** The action's entry: read the inputs and the event, run one step, and turn any failure into a visible comment. */
export async function run(): Promise<void> {
  let ctx: StepContext | undefined;
  try {
    const settings = readSettings();
    addSecret(settings.githubToken);
    addSecret(settings.anthropicApiKey);
    if (settings.anthropicApiKey) core.setSecret(settings.anthropicApiKey);
    ctx = buildContext(settings, readEvent());
    const steps = { route, work, advance, critic, merge } as const;
    await steps[settings.step](ctx);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (ctx) await reportFailure(ctx, error);
    core.setFailed(redact(text));
  }
}

