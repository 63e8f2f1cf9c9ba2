import { Octokit } from '@octokit/core';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { randomBytes } from 'node:crypto';
import { jpegOf, pngOf } from '../images';
import type { PlatformOptions } from '../anthropic/platforms';
import { configureAwsCredentials, googleAuth, withFallbackInput, withProvider } from '../platforms/actions';
import { awsSession, WIF_AUDIENCE } from '../platforms/credentials';
import { parseScript, startFakeAnthropic, ThinkingLedger, type FakeAnthropic, type Fault, type Script } from '../anthropic/index';
import { profileNamed, type PlatformProfile } from '../latency';
import { numberId } from '../../../src/adapters/github/forge';
import { FakeGitHub, type GitHubFault } from '../github/fake-github';
import type { Scopes } from '../github/model';
import { FakeArtifactService } from '../artifacts/fake-artifact-service';
import { WorkflowRunner, type JobRun, type StandIn, type WorkflowRun } from '../runner/workflow-runner';
import { git } from '../git-cli';
import { sleep } from '../time';
import { ScenarioSchema, type Scenario, type TimelineStep } from './schema';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/**
 * The full workflow people may copy instead of the short one: docs/install.md's, which runs crew as
 * `your-org/crew@v1` (the runner maps that to this checkout). The repository's own
 * `.github/workflows/crew.yml` is the same file with `uses: ./`, so crew runs on its own issues
 * (tests/unit/shipped-files.test.ts checks both). Scenarios with `workflow: full` play it.
 */
export function readUserWorkflow(): string {
  const block = /```yaml\n([\s\S]*?)```/.exec(readFileSync(join(PROJECT_ROOT, 'docs', 'install.md'), 'utf8'))?.[1];
  if (!block?.startsWith('# crew:')) throw new Error("docs/install.md: the first yaml block is not crew's full workflow");
  return block;
}

/** The short workflow people copy (workflow-templates/crew.yml): it calls `your-org/crew/.github/workflows/crew-jobs.yml@v1`, which the runner maps to this checkout. */
export function readShortWorkflow(): string {
  return readFileSync(join(PROJECT_ROOT, 'workflow-templates', 'crew.yml'), 'utf8');
}

/** Which workflow a scenario plays (schema.ts, `workflow`): a cloud provider's or fallback's auth steps need the full form. */
export function workflowForm(scenario: Pick<Scenario, 'workflow' | 'provider' | 'fallback_provider'>): 'short' | 'full' {
  const cloud = scenario.provider !== 'anthropic' || scenario.fallback_provider !== undefined;
  if (scenario.workflow === 'short' && cloud)
    throw new Error("scenario: workflow 'short' cannot add a provider's auth steps to crew's jobs; use workflow: full");
  return scenario.workflow ?? (cloud ? 'full' : 'short');
}

/** The short workflow passing one more secret to crew's jobs (crew-jobs.yml declares CREW_GITHUB_TOKEN). */
export function withCallerSecret(workflow: string, name: string): string {
  const edited = workflow.replace(/^(\s+)secrets:\n/m, (line, indent: string) => `${line}${indent}  ${name}: \${{ secrets.${name} }}\n`);
  if (edited === workflow) throw new Error("the short workflow has no 'secrets:' on its job; update withCallerSecret");
  return edited;
}

export interface ScenarioHooks {
  /** Called whenever a comment crew wrote is created or edited. */
  onCrewComment?: (event: { issue: number; id: number; body: string; edited: boolean }) => void;
  onJobDone?: (run: WorkflowRun, job: JobRun) => void;
  /** Called before each timeline step, with the fake GitHub as it is then; the step waits for it (e.g. to let days pass on crew/state). */
  onStep?: (step: TimelineStep, index: number, gh: FakeGitHub) => void | Promise<void>;
  /** Runs once the issue exists, before the first step: e.g. to write a long history straight onto crew/state. */
  beforeTimeline?: (world: { gh: FakeGitHub; issue: number }) => Promise<void>;
  /** Runs after the scenario, while the fakes are still up, e.g. to clone a branch. */
  beforeClose?: (world: {
    gh: FakeGitHub;
    anthropic: FakeAnthropic;
    fallback?: FakeAnthropic;
    runner: WorkflowRunner;
    /** GitHub's artifact service, with what each job uploaded. */
    artifacts: FakeArtifactService;
    result: ScenarioResult;
  }) => Promise<void>;
}

export interface ScenarioResult {
  scenario: string;
  /** The login crew's comments and pushes carry: github-actions[bot], or the scenario token's account. */
  crewLogin: string;
  wallMs: number;
  issue: { number: number; title: string; state: string; labels: string[]; comments: CommentOut[] };
  pulls: Array<{
    number: number;
    title: string;
    state: string;
    merged: boolean;
    head: string;
    base: string;
    body: string | null;
    headSha: string | null;
    mergeCommitSha: string | null;
    files: string[];
    comments: CommentOut[];
  }>;
  branches: Array<{ name: string; sha: string }>;
  defaultBranchSha: string | null;
  github: {
    crew: { total: number; writes: number; byRoute: Record<string, number> };
    everyone: { total: number; writes: number };
    git: { total: number; pushes: number; fetches: number };
    violations: string[];
  };
  model: {
    requests: number;
    byRole: Record<string, number>;
    /** Model requests by where they arrived: the Claude API (`anthropic`), or the fake Bedrock or Vertex AI. */
    byPlatform: Record<string, number>;
    order: string[];
    tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
    unscripted: string[];
  };
  jobs: Array<{
    run: number;
    event: string;
    job: string;
    name: string;
    result: string;
    exitCodes: Array<number | null>;
    killedAt?: string;
    annotations: string[];
    /** The tasks a work job went on to after its matrix task (a chain, steps/work.ts), in order. */
    chained?: string[];
  }>;
  /**
   * When each job that ran started and finished (epoch ms), with its matrix task if any. A work
   * job that ran a chain gives one entry per task, each its part of the job (so a task's span is
   * where it ran, as the bench measures it); `chainPart` numbers the parts after the first.
   */
  jobTimes: Array<{ job: string; task?: string; startedAt: number; finishedAt: number; chainPart?: number }>;
  /** The runner's own errors, and any run GitHub would have refused before its jobs (startup_failure). */
  runnerErrors: string[];
  /** What the jobs uploaded to GitHub's artifact service: each artifact's name and size, and any request the real service refuses. */
  artifacts: { uploaded: Array<{ name: string; size: number }>; violations: string[] };
  /** Which workflow the repository held (schema.ts, `workflow`). */
  workflow: 'short' | 'full';
}

interface CommentOut {
  id: number;
  author: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export async function loadScenario(file: string): Promise<{ scenario: Scenario; dir: string }> {
  const text = await readFile(file, 'utf8');
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (e) {
    throw new Error(`${file}: not valid YAML: ${(e as Error).message}`);
  }
  const parsed = ScenarioSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ')}`);
  }
  // The scripted replies are checked now, so a mistake names the file and the path before anything starts.
  if (parsed.data.model !== undefined) {
    try {
      parseScript(parsed.data.model, ['model']);
    } catch (e) {
      throw new Error(`${file}: ${(e as Error).message}`);
    }
  }
  return { scenario: parsed.data, dir: dirname(resolve(file)) };
}

async function readFixture(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else files[relative(dir, full)] = await readFile(full, 'utf8');
    }
  };
  await walk(dir);
  return files;
}

/** The README's workflow for a cloud provider; the shipped one for `anthropic`. */
function withCloudProvider(workflow: string, provider: Scenario['provider']): string {
  return provider === 'anthropic' ? workflow : withProvider(workflow, provider);
}

export const CLOUD = {
  bedrockRegion: 'us-east-1',
  vertexProject: 'acme-crew',
  vertexRegion: 'us-east5',
  wifProvider: WIF_AUDIENCE.replace(/^\/\/iam\.googleapis\.com\//, ''),
};

/**
 * The fake as a cloud provider, and what the runner machine and the repository's variables hold for
 * the README's provider workflow: the auth actions' stand-ins, and the SDKs' documented base-URL
 * variables pointed at the fake (ANTHROPIC_BEDROCK_BASE_URL, ANTHROPIC_VERTEX_BASE_URL). The job's
 * OIDC request token is one per runner, shared by both worlds of a failover.
 */
function cloudWorld(provider: Scenario['provider'], requestToken: string) {
  if (provider === 'anthropic') return undefined;
  const session = awsSession(CLOUD.bedrockRegion);
  const platform: PlatformOptions =
    provider === 'bedrock'
      ? { kind: 'bedrock', region: CLOUD.bedrockRegion, credentials: [session.credentials] }
      : { kind: 'vertex', project: CLOUD.vertexProject, region: CLOUD.vertexRegion, oidcRequestToken: requestToken, audience: WIF_AUDIENCE };
  return {
    provider,
    platform,
    env: (url: string): Record<string, string> =>
      provider === 'bedrock' ? { ANTHROPIC_BEDROCK_BASE_URL: url } : { ANTHROPIC_VERTEX_BASE_URL: `${url}/v1`, CLOUD_ML_REGION: CLOUD.vertexRegion },
    standIns: (url: string) =>
      (provider === 'bedrock'
        ? { 'aws-actions/configure-aws-credentials': configureAwsCredentials(session.credentials) }
        : { 'google-github-actions/auth': googleAuth(url) }) as Record<string, StandIn>,
    vars: (provider === 'bedrock'
      ? { CREW_AWS_ROLE_ARN: 'arn:aws:iam::123456789012:role/crew-bedrock', CREW_AWS_REGION: CLOUD.bedrockRegion }
      : { CREW_GCP_WIF_PROVIDER: CLOUD.wifProvider, CREW_GCP_PROJECT: CLOUD.vertexProject }) as Record<string, string>,
  };
}

/** What the runner needs for the cloud providers in play (the primary's, the fallback's): the OIDC token service, the stand-ins, the variables. */
/**
 * Test speed only: with NODE_COMPILE_CACHE set (vitest.config.ts sets it for every process the tests
 * start, the local CLI's included), crew's job processes share Node's compile cache too, so each of
 * the suite's many job starts does not compile the 6 MB bundle again (about 0.3 CPU-s a job here).
 * The runner gives jobs only the environment it chooses, so it is passed on here. GitHub's runners
 * start cold; `npm run bench` leaves it unset, so its figures keep a cold start in every job. The
 * folder is the test process's own, out of reach of the sandboxed tools' user.
 */
function compileCache(): Record<string, string> {
  const dir = process.env.NODE_COMPILE_CACHE;
  return dir ? { NODE_COMPILE_CACHE: dir } : {};
}

function cloudRunner(requestToken: string, clouds: Array<{ world: NonNullable<ReturnType<typeof cloudWorld>>; url: string }>) {
  if (!clouds.length) return {};
  // GitHub's token service: the Vertex fake plays it (its STS checks the tokens); Bedrock's stand-in only needs it to exist.
  const oidcHost = (clouds.find((c) => c.world.provider === 'vertex') ?? clouds[0]!).url;
  return {
    oidc: { url: `${oidcHost}/oidc/token?api-version=2.0`, requestToken },
    standIns: Object.assign({}, ...clouds.map((c) => c.world.standIns(c.url))) as Record<string, StandIn>,
    vars: Object.assign({}, ...clouds.map((c) => c.world.vars)) as Record<string, string>,
  };
}

/** The README's workflow with `fallback_provider:` on crew's steps, and that provider's auth step where it needs one. */
function withFallback(workflow: string, fallback: Scenario['fallback_provider']): string {
  if (!fallback) return workflow;
  return fallback === 'anthropic' ? withFallbackInput(workflow, fallback) : withProvider(workflow, fallback, 'fallback_provider');
}

/** Plays a scenario end to end through the shipped workflow and the bundled action. */
export async function runScenario(
  scenario: Scenario,
  opts: {
    baseDir: string;
    outDir?: string;
    hooks?: ScenarioHooks;
    keepWorkDir?: boolean;
    /** Jobs the runner runs at once (default 8); GitHub Free allows 20. */ maxConcurrentJobs?: number;
    /** More of the runner machine's environment for every job (e.g. CREW_EGRESS_RESOLVER from tests/support/egress/world.ts). */
    env?: Record<string, string>;
    /** GitHub's latency, instead of the scenario's `profile:` (the bench's whole run plays one profile without job starts). */
    latency?: PlatformProfile;
  },
): Promise<ScenarioResult> {
  const started = Date.now();
  const work = await mkdtemp(join(tmpdir(), `crew-scenario-`));
  const shipped = readUserWorkflow();
  const short = readShortWorkflow();
  const files: Record<string, string> = {
    ...(scenario.repo.fixture ? await readFixture(resolve(opts.baseDir, scenario.repo.fixture)) : {}),
    '.github/workflows/crew.yml':
      workflowForm(scenario) === 'short'
        ? scenario.github_token
          ? withCallerSecret(short, 'CREW_GITHUB_TOKEN')
          : short
        : withFallback(withCloudProvider(scenario.github_token ? withGitHubToken(shipped) : shipped, scenario.provider), scenario.fallback_provider),
    ...scenario.repo.files,
  };
  if (scenario.config !== undefined) files['.github/crew.yml'] = scenario.config;

  let anthropic: FakeAnthropic | undefined;
  let fallback: FakeAnthropic | undefined;
  let gh: FakeGitHub | undefined;
  let runner: WorkflowRunner | undefined;
  let artifacts: FakeArtifactService | undefined;
  try {
    const requestToken = `oidc-request-${randomBytes(16).toString('hex')}`;
    const cloud = cloudWorld(scenario.provider, requestToken);
    const fallbackCloud = scenario.fallback_provider ? cloudWorld(scenario.fallback_provider, requestToken) : undefined;
    // The primary and the fallback serve one model: a thinking block either signed is good on both (server.ts, `thinking`).
    const thinking = scenario.fallback_provider ? new ThinkingLedger() : undefined;
    const model = {
      script: withDefaultReviewers(parseScript(scenario.model ?? { entries: [] })),
      timeScale: scenario.time_scale,
      ...(thinking ? { thinking } : {}),
      ...(scenario.model_latency
        ? { latency: { perRequestMs: scenario.model_latency.per_request_ms, perOutputTokenMs: scenario.model_latency.per_output_token_ms } }
        : {}),
    };
    anthropic = await startFakeAnthropic({ ...model, ...(cloud ? { platform: cloud.platform } : {}), faults: scenario.faults.anthropic as Fault[] });
    if (scenario.fallback_provider)
      fallback = await startFakeAnthropic({
        ...model,
        ...(fallbackCloud ? { platform: fallbackCloud.platform } : {}),
        faults: scenario.faults.fallback as Fault[],
      });
    gh = await FakeGitHub.start({
      root: join(work, 'github'),
      owner: scenario.repo.owner,
      repo: scenario.repo.name,
      defaultBranch: scenario.repo.default_branch,
      files,
      // The repository's secrets are the ones the runner gives its jobs.
      settings: { ...scenario.repo.settings, secrets: Object.keys(scenario.secrets) },
      timeScale: scenario.time_scale,
      latency: opts.latency ?? profileNamed(scenario.profile),
    });
    for (const [branch, branchFiles] of Object.entries(scenario.repo.branches)) {
      await gh.repo.writeCommit({ branch, files: branchFiles, message: `Work on ${branch}`, from: scenario.repo.default_branch });
    }
    for (const u of scenario.users) if (u.login !== gh.owner) gh.addUser(u.login, { permission: u.permission, type: u.type });
    gh.addFaults(...(scenario.faults.github as GitHubFault[]));
    const fake = gh;
    const clients = new Map<string, Octokit>();
    const as = (login: string) => {
      let c = clients.get(login);
      if (!c) clients.set(login, (c = new Octokit({ auth: fake.userToken(login), baseUrl: fake.url, request: { retries: 0 } })));
      return c;
    };
    const secrets = { ...scenario.secrets };
    let crewLogin = 'github-actions[bot]';
    if (scenario.github_token && 'personal' in scenario.github_token) {
      crewLogin = scenario.github_token.personal;
      secrets.CREW_GITHUB_TOKEN = gh.userToken(crewLogin);
    } else if (scenario.github_token) {
      crewLogin = `${scenario.github_token.app}[bot]`;
      secrets.CREW_GITHUB_TOKEN = gh.appToken(scenario.github_token.app, APP_PERMISSIONS);
    }
    if (opts.hooks?.onCrewComment) {
      const seen = new Map<number, string>();
      const poll = setInterval(() => {
        for (const c of fake.comments.values()) {
          if (c.user !== crewLogin || seen.get(c.id) === c.body) continue;
          const edited = seen.has(c.id);
          seen.set(c.id, c.body);
          opts.hooks!.onCrewComment!({ issue: c.issue, id: c.id, body: c.body, edited });
        }
      }, 20);
      poll.unref();
    }
    artifacts = await FakeArtifactService.start();
    runner = new WorkflowRunner({
      gh,
      artifacts,
      workRoot: join(work, 'runner'),
      actions: { crew: PROJECT_ROOT },
      secrets,
      ...cloudRunner(requestToken, [
        ...(cloud ? [{ world: cloud, url: anthropic.url }] : []),
        ...(fallbackCloud ? [{ world: fallbackCloud, url: fallback!.url }] : []),
      ]),
      env: {
        // The Claude API's fake: the fallback's when the primary is a cloud and the fallback is not.
        ANTHROPIC_BASE_URL: (scenario.provider !== 'anthropic' && scenario.fallback_provider === 'anthropic' ? fallback! : anthropic).url,
        ...(cloud?.env(anthropic.url) ?? {}),
        ...(fallbackCloud?.env(fallback!.url) ?? {}),
        CREW_TIME_SCALE: String(scenario.time_scale),
        ...compileCache(),
        ...(scenario.job_time_scale !== 1 ? { CREW_JOB_TIME_SCALE: String(scenario.job_time_scale) } : {}),
        ...opts.env,
      },
      timeScale: scenario.time_scale,
      latency: opts.latency ?? profileNamed(scenario.profile),
      jobTimeScale: scenario.job_time_scale,
      killPoints: scenario.kill.map(({ time_scale, ...k }) => ({ ...k, ...(time_scale === undefined ? {} : { timeScale: time_scale }) })),
      ...(opts.maxConcurrentJobs ? { maxConcurrentJobs: opts.maxConcurrentJobs } : {}),
      onJobDone: opts.hooks?.onJobDone,
    });
    const uploaded = new Map(
      Object.entries(scenario.attachments).map(([name, a]) => [name, gh!.attachments.add(attachmentBytes(a), a.content_type, scenario.issue.author)]),
    );
    const withAttachments = (text: string) =>
      text.replace(/\{\{attachment:([\w.-]+)\}\}/g, (_, name: string) => {
        const url = uploaded.get(name);
        if (!url) throw new Error(`scenario '${scenario.name}': {{attachment:${name}}} names no entry of attachments`);
        return url;
      });
    const { data: issue } = await as(scenario.issue.author).request('POST /repos/{owner}/{repo}/issues', {
      owner: gh.owner,
      repo: gh.repoName,
      title: scenario.issue.title,
      body: withAttachments(scenario.issue.body),
    });
    const named = new Map<string, number>();
    // Seeded straight into the fake: posting them through the API would trip GitHub's secondary rate limit.
    for (let i = 0; i < scenario.issue.existing_comments; i++) {
      const id = gh.nextId('comment');
      gh.comments.set(id, {
        id,
        issue: issue.number,
        body: `Earlier discussion, comment ${i + 1}.`,
        user: scenario.issue.author,
        created_at: gh.now(),
        updated_at: gh.now(),
        reactions: [],
      });
    }

    const api = anthropic;
    const waitFor = async (w: unknown) => {
      if (w === 'idle' || w === undefined) return runner!.idle();
      if (typeof w === 'object' && w !== null && 'pulls' in w) {
        const p = w as { pulls: number; timeout_ms: number };
        const deadline = Date.now() + p.timeout_ms;
        while (fake.pulls.size < p.pulls) {
          if (Date.now() > deadline) throw new Error(`scenario '${scenario.name}': fewer than ${p.pulls} pull requests within ${p.timeout_ms} ms`);
          await sleep(25);
        }
        return;
      }
      if (typeof w === 'object' && w !== null && 'model' in w) {
        const m = w as { model: { role: string; task?: string; requests: number }; timeout_ms: number };
        const deadline = Date.now() + m.timeout_ms;
        for (;;) {
          const seen = api.requests.filter((q) => q.role === m.model.role && (!m.model.task || q.task === m.model.task)).length;
          // A request still waiting for its reply is not recorded yet, so count what the server is serving too.
          if (seen + api.inFlight(m.model.role, m.model.task) >= m.model.requests) return;
          if (Date.now() > deadline)
            throw new Error(`scenario '${scenario.name}': fewer than ${m.model.requests} ${m.model.role} requests within ${m.timeout_ms} ms`);
          await sleep(25);
        }
      }
      const spec = w as { comment: string; author?: string; on: 'issue' | 'pr'; timeout_ms: number };
      const re = new RegExp(spec.comment);
      const deadline = Date.now() + spec.timeout_ms;
      for (;;) {
        const target = spec.on === 'pr' ? Math.max(0, ...[...fake.pulls.keys()]) : issue.number;
        const hit = [...fake.comments.values()].some(
          (c) => c.issue === target && re.test(c.body) && (!spec.author || c.user === (spec.author === 'crew' ? crewLogin : spec.author)),
        );
        if (hit) return;
        if (Date.now() > deadline) throw new Error(`scenario '${scenario.name}': no comment matching /${spec.comment}/ within ${spec.timeout_ms} ms`);
        await sleep(25);
      }
    };

    await opts.hooks?.beforeTimeline?.({ gh, issue: issue.number });
    for (const [i, step] of scenario.timeline.entries()) {
      await opts.hooks?.onStep?.(step, i, gh);
      if ('comment' in step) {
        if (step.unless_crew_said) {
          const re = new RegExp(step.unless_crew_said);
          if ([...gh.comments.values()].some((c) => c.user === crewLogin && re.test(c.body))) continue;
        }
        const target = step.on === 'pr' ? Math.max(0, ...[...gh.pulls.keys()]) : issue.number;
        if (!target) throw new Error(`scenario '${scenario.name}': timeline[${i}] comments on the newest pull request, but there is none yet`);
        const { data } = await as(step.author).request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
          owner: gh.owner,
          repo: gh.repoName,
          issue_number: target,
          body: withAttachments(step.comment),
        });
        if (step.id) named.set(step.id, numberId(data.id));
        if (step.wait) await waitFor(step.wait);
      } else if ('edit' in step) {
        const id = named.get(step.edit);
        if (id === undefined) throw new Error(`scenario '${scenario.name}': timeline[${i}] edits '${step.edit}', which no earlier comment is named`);
        const author = step.author ?? gh.comments.get(id)!.user;
        await as(author).request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
          owner: gh.owner,
          repo: gh.repoName,
          comment_id: id,
          body: step.body,
        });
      } else if ('edit_issue' in step) {
        await as(step.author).request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
          owner: gh.owner,
          repo: gh.repoName,
          issue_number: issue.number,
          ...step.edit_issue,
        });
      } else if ('label' in step) {
        await as(step.author).request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
          owner: gh.owner,
          repo: gh.repoName,
          issue_number: issue.number,
          labels: step.label,
        });
        if (step.wait) await waitFor(step.wait);
      } else if ('unlabel' in step) {
        await as(step.author).request('DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', {
          owner: gh.owner,
          repo: gh.repoName,
          issue_number: issue.number,
          name: step.unlabel,
        });
      } else if ('assign' in step) {
        await as(step.author).request('POST /repos/{owner}/{repo}/issues/{issue_number}/assignees', {
          owner: gh.owner,
          repo: gh.repoName,
          issue_number: issue.number,
          assignees: step.assign,
        });
        if (step.wait) await waitFor(step.wait);
      } else if ('open_issue' in step) {
        await as(step.author).request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, ...step.open_issue });
      } else if ('review' in step) {
        const pr = Math.max(...[...gh.pulls.keys()]);
        await as(step.review.author).request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
          owner: gh.owner,
          repo: gh.repoName,
          pull_number: pr,
          event: step.review.event,
          body: withAttachments(step.review.body),
          ...(step.review.comments.length
            ? { comments: step.review.comments.map((c) => ({ ...c, body: withAttachments(c.body), side: 'RIGHT' as const })) }
            : {}),
        });
        if (step.wait) await waitFor(step.wait);
      } else if ('review_comment' in step) {
        const pr = gh.pulls.get(Math.max(0, ...[...gh.pulls.keys()]));
        if (!pr) throw new Error(`scenario '${scenario.name}': timeline[${i}] comments on a line, but there is no pull request yet`);
        const { author, path, line, body, count } = step.review_comment;
        const commitId = pr.fork?.sha ?? (await gh.repo.branchSha(pr.head))!;
        for (let n = 1; n <= count; n++) {
          await as(author).request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments', {
            owner: gh.owner,
            repo: gh.repoName,
            pull_number: pr.number,
            body: withAttachments(body.replaceAll('{n}', String(n))),
            commit_id: commitId,
            path,
            line,
            side: 'RIGHT',
          });
        }
        if (step.wait) await waitFor(step.wait);
      } else if ('resolve_thread' in step) {
        const pr = Math.max(0, ...[...gh.pulls.keys()]);
        const pattern = new RegExp(step.resolve_thread.body);
        const root = gh.reviewComments.find((c) => c.pull === pr && c.in_reply_to === undefined && pattern.test(c.body));
        if (!root) throw new Error(`scenario '${scenario.name}': timeline[${i}] resolves a thread matching ${pattern}, but #${pr} has none`);
        root.resolved = true;
      } else if ('open_pr' in step) {
        const { head, title, files, fork } = step.open_pr;
        const body = withAttachments(step.open_pr.body);
        const base = step.open_pr.base ?? gh.defaultBranch;
        const user = gh.user(step.author);
        if (fork) {
          if (!Object.keys(files).length) throw new Error(`scenario '${scenario.name}': timeline[${i}] opens a pull request from a fork with no files`);
          await gh.openForkPull({ owner: step.author, branch: head, base, title, body, files });
        } else {
          if (Object.keys(files).length) {
            const exists = (await gh.repo.branchSha(head)) !== undefined;
            await gh.repo.writeCommit({
              branch: head,
              files,
              message: `Work on ${head}`,
              ...(exists ? {} : { from: base }),
              identity: { name: user.login, email: `${user.login}@users.noreply.github.com` },
            });
          }
          await as(step.author).request('POST /repos/{owner}/{repo}/pulls', { owner: gh.owner, repo: gh.repoName, head, base, title, body });
        }
      } else if ('push' in step) {
        const { author, path, content, find, replace } = step.push;
        const pr = gh.pulls.get(Math.max(0, ...[...gh.pulls.keys()]));
        const branch = step.push.branch ?? pr?.head;
        if (!branch) throw new Error(`scenario '${scenario.name}': timeline[${i}] pushes to the newest PR's head, but there is no pull request yet`);
        const files = { ...step.push.files };
        if (path !== undefined) {
          let text = content;
          if (text === undefined) {
            const now = await gh.repo.readFile(`refs/heads/${branch}`, path);
            if (now === undefined || find === undefined || replace === undefined || !now.includes(find)) {
              throw new Error(
                `scenario '${scenario.name}': timeline[${i}] edits ${branch}:${path}, but ${now === undefined ? 'there is no such file' : find === undefined || replace === undefined ? 'it gives neither content nor find and replace' : `the file has no ${JSON.stringify(find)}`}`,
              );
            }
            text = now.replace(find, replace);
          }
          files[path] = text;
        }
        const user = gh.user(author);
        const before = await gh.repo.branchSha(branch);
        const after = await gh.repo.writeCommit({
          branch,
          files,
          message: step.push.message ?? (path ? `Edit ${path}` : 'a change pushed by hand'),
          identity: { name: user.login, email: `${user.login}@users.noreply.github.com` },
        });
        // As a push over git would: `push` fires, and starts the workflows that listen to it.
        await gh.pushedBy(user.login, `refs/heads/${branch}`, before ?? null, after);
      } else if ('github_faults' in step) {
        gh.addFaults(...(step.github_faults as GitHubFault[]));
      } else if ('repo_settings' in step) {
        Object.assign(gh.settings, step.repo_settings);
      } else if ('hold_runs' in step) {
        runner.hold(step.hold_runs === true ? undefined : step.hold_runs.workflow);
      } else if ('hold_request' in step) {
        const { route, body, until, timeout_ms } = step.hold_request;
        const done = until.runs;
        const r = runner;
        gh.holdRequest({
          route,
          ...(body ? { body: new RegExp(body) } : {}),
          until: () =>
            r.runs.filter((x) => x.status === 'completed' && (!done.workflow || x.workflow === done.workflow) && (!done.event || x.event === done.event))
              .length >= done.completed,
          timeoutMs: timeout_ms,
          what: `timeline[${i}]`,
        });
      } else if ('rerun' in step) {
        const named = (id: number, file: string) => file === step.rerun.workflow || gh!.workflowRuns.get(id)?.name === step.rerun.workflow;
        const last = runner.runs.filter((x) => named(x.id, x.workflow)).at(-1);
        if (!last) throw new Error(`scenario '${scenario.name}': timeline[${i}] re-runs ${step.rerun.workflow}, which has not run`);
        runner.rerun(last.id, step.rerun.author);
      } else if ('release_runs' in step) {
        await runner.release(step.release_runs === 'together');
      } else if ('dispatch' in step) {
        const crewSent = runner.runs.filter((r) => r.event === 'workflow_dispatch').at(-1);
        if (step.dispatch === 'replay' && !crewSent)
          throw new Error(`scenario '${scenario.name}': timeline[${i}] replays a dispatch, but crew has not dispatched anything yet`);
        const inputs =
          step.dispatch === 'replay'
            ? crewSent!.inputs!
            : { issue: String(issue.number), run: step.dispatch.run, tasks: JSON.stringify(step.dispatch.tasks), nonce: step.dispatch.nonce };
        await as(step.author).request('POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', {
          owner: gh.owner,
          repo: gh.repoName,
          workflow_id: 'crew.yml',
          ref: gh.defaultBranch,
          inputs,
        });
      } else if ('merge_pr' in step) {
        const open = [...fake.pulls.values()].filter((p) => fake.issues.get(p.number)?.state === 'open').map((p) => p.number);
        if (!open.length) throw new Error(`scenario '${scenario.name}': timeline[${i}] merges a pull request, but none is open`);
        await as(step.merge_pr.author).request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', {
          owner: gh.owner,
          repo: gh.repoName,
          pull_number: Math.max(...open),
          merge_method: step.merge_pr.method,
        });
      } else if ('close_pr' in step) {
        const open = [...fake.pulls.values()].filter((p) => fake.issues.get(p.number)?.state === 'open').map((p) => p.number);
        if (!open.length) throw new Error(`scenario '${scenario.name}': timeline[${i}] closes a pull request, but none is open`);
        await as(step.close_pr.author).request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
          owner: gh.owner,
          repo: gh.repoName,
          pull_number: Math.max(...open),
          state: 'closed',
        });
      } else if ('delete_branch' in step) {
        await as(step.delete_branch.author).request('DELETE /repos/{owner}/{repo}/git/refs/{ref}', {
          owner: gh.owner,
          repo: gh.repoName,
          ref: `heads/${step.delete_branch.branch}`,
        });
      } else if ('check' in step) {
        const pr = gh.pulls.get(Math.max(...[...gh.pulls.keys()]));
        const sha = pr ? await gh.repo.branchSha(pr.head) : undefined;
        if (!sha) throw new Error(`scenario '${scenario.name}': timeline[${i}] adds a check, but there is no pull request yet`);
        const app = new Octokit({ auth: gh.appToken('ci', { checks: 'write' }), baseUrl: gh.url });
        await app.request('POST /repos/{owner}/{repo}/check-runs', {
          owner: gh.owner,
          repo: gh.repoName,
          name: step.check.name,
          head_sha: sha,
          status: 'completed',
          conclusion: step.check.conclusion,
        });
      } else {
        await waitFor(step.wait);
      }
    }
    await runner.idle();
    // A hold whose request never came played nothing the scenario meant it to.
    for (const what of gh.pendingHolds) gh.violations.push(`${what}: the held request never came, or was never released`);
    const result = {
      ...(await collect(scenario, gh, fallback ? [anthropic, fallback] : [anthropic], runner, issue.number, started, crewLogin)),
      artifacts: {
        uploaded: artifacts.artifacts.filter((a) => a.finalized).map((a) => ({ name: a.name, size: a.size })),
        violations: [...artifacts.violations],
      },
    };
    await opts.hooks?.beforeClose?.({ gh, anthropic, ...(fallback ? { fallback } : {}), runner, artifacts, result });
    if (opts.outDir) await writeOutputs(opts.outDir, result, runner, gh);
    return result;
  } finally {
    runner?.stop();
    await gh?.close();
    await anthropic?.close();
    await fallback?.close();
    await artifacts?.close();
    if (!opts.keepWorkDir) await rm(work, { recursive: true, force: true });
  }
}

/** What the README asks a GitHub App for: the union of the shipped jobs' permissions, and not `workflows`. */
const APP_PERMISSIONS: Scopes = {
  contents: 'write',
  issues: 'write',
  'pull-requests': 'write',
  actions: 'write',
  checks: 'read',
  statuses: 'read',
};

/** The shipped workflow with every crew step given the scenario's token, the way the README tells people to. */
export function withGitHubToken(workflow: string): string {
  let steps = 0;
  const edited = workflow.replace(/^(\s+)step: (\w+)\n/gm, (line, indent: string) => {
    steps++;
    return `${line}${indent}github_token: \${{ secrets.CREW_GITHUB_TOKEN }}\n`;
  });
  if (steps !== 6) throw new Error(`the shipped workflow has ${steps} crew steps where the token scenarios expect 6; update withGitHubToken`);
  return edited;
}

async function collect(
  scenario: Scenario,
  gh: FakeGitHub,
  /** The provider's fake, and with `fallback_provider` the fallback's: the model traffic is both. */
  fakes: FakeAnthropic[],
  runner: WorkflowRunner,
  issueNumber: number,
  started: number,
  crewLogin: string,
): Promise<Omit<ScenarioResult, 'artifacts'>> {
  const commentsOf = (n: number): CommentOut[] =>
    [...gh.comments.values()]
      .filter((c) => c.issue === n)
      .map((c) => ({ id: c.id, author: c.user, body: c.body, createdAt: c.created_at, updatedAt: c.updated_at }));
  const issue = gh.issues.get(issueNumber)!;
  const pulls = await Promise.all(
    [...gh.pulls.values()].map(async (p) => {
      const i = gh.issues.get(p.number)!;
      const head = p.frozenHeadSha ?? (await gh.repo.branchSha(p.head)) ?? null;
      const base = await gh.repo.branchSha(p.base);
      return {
        number: p.number,
        title: i.title,
        state: i.state,
        merged: p.merged_at !== null,
        head: p.head,
        base: p.base,
        body: i.body,
        headSha: head,
        mergeCommitSha: p.merge_commit_sha,
        files: head && base ? await gh.repo.changedFiles(base, head) : [],
        comments: commentsOf(p.number),
      };
    }),
  );
  const branches = (await gh.repo.listRefs('refs/heads/')).map((r) => ({ name: r.ref.replace(/^refs\/heads\//, ''), sha: r.sha }));
  const crew = gh.requestCounts('actions');
  const everyone = gh.requestCounts();
  const requests = fakes.flatMap((f) => f.requests).sort((a, b) => a.receivedAt - b.receivedAt);
  const byRole: Record<string, number> = {};
  for (const r of requests) byRole[r.role] = (byRole[r.role] ?? 0) + 1;
  const byPlatform: Record<string, number> = {};
  for (const r of requests) byPlatform[r.platform?.kind ?? 'anthropic'] = (byPlatform[r.platform?.kind ?? 'anthropic'] ?? 0) + 1;
  const totals = fakes
    .map((f) => f.usageTotals())
    .reduce((a, b) => ({
      requests: a.requests + b.requests,
      input_tokens: a.input_tokens + b.input_tokens,
      output_tokens: a.output_tokens + b.output_tokens,
      cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
      cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    }));
  return {
    scenario: scenario.name,
    crewLogin,
    wallMs: Date.now() - started,
    issue: { number: issue.number, title: issue.title, state: issue.state, labels: issue.labels, comments: commentsOf(issue.number) },
    pulls,
    branches,
    defaultBranchSha: (await gh.repo.branchSha(gh.defaultBranch)) ?? null,
    github: {
      crew,
      everyone: { total: everyone.total, writes: everyone.writes },
      git: {
        total: gh.gitRequests.length,
        pushes: gh.gitRequests.filter((r) => r.service === 'receive-pack' && r.phase === 'git-receive-pack').length,
        fetches: gh.gitRequests.filter((r) => r.service === 'upload-pack' && r.phase === 'git-upload-pack').length,
      },
      violations: [...gh.violations],
    },
    model: {
      requests: requests.length,
      byRole,
      byPlatform,
      order: requests.map((r) => r.role),
      tokens: {
        input: totals.input_tokens,
        output: totals.output_tokens,
        cacheRead: totals.cache_read_input_tokens,
        cacheWrite: totals.cache_creation_input_tokens,
      },
      unscripted: fakes.flatMap((f) => f.unscripted).map((r) => `role=${r.role} task=${r.task ?? '-'} attempt=${r.attempt} turn=${r.turn}`),
    },
    jobs: runner.runs.flatMap((run, i) =>
      run.jobs.map((j) => ({
        run: i + 1,
        event: run.event,
        job: j.id,
        name: j.name,
        result: j.result,
        exitCodes: j.steps.map((s) => s.exitCode),
        ...(j.killedAt ? { killedAt: j.killedAt } : {}),
        annotations: j.annotations.map((a) => `${a.level}: ${a.message}`),
        ...(j.tasks?.length ? { chained: j.tasks.map((t) => t.task) } : {}),
      })),
    ),
    jobTimes: runner.runs.flatMap((run) =>
      run.jobs
        .filter((j) => j.steps.length > 0)
        .flatMap((j) => {
          const parts = [
            { ...(j.matrix?.task ? { task: String(j.matrix.task) } : {}), at: j.startedAt },
            ...(j.tasks ?? []).map((t) => ({ task: t.task, at: t.at })),
          ];
          return parts.map(({ at, ...task }, i) => ({
            job: j.id,
            ...task,
            startedAt: at,
            finishedAt: parts[i + 1]?.at ?? j.finishedAt,
            ...(i ? { chainPart: i } : {}),
          }));
        }),
    ),
    runnerErrors: [...runner.errors, ...runner.runs.flatMap((run) => (run.startupFailure ? [`startup failure of run ${run.id}: ${run.startupFailure}`] : []))],
    workflow: workflowForm(scenario),
  };
}

async function writeOutputs(outDir: string, result: ScenarioResult, runner: WorkflowRunner, gh: FakeGitHub): Promise<void> {
  await mkdir(join(outDir, 'logs'), { recursive: true });
  await writeFile(join(outDir, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
  // The repository as the scenario left it, every branch included, to clone and look at.
  await rm(join(outDir, 'repo.git'), { recursive: true, force: true });
  await git(['clone', '--quiet', '--mirror', gh.repoDir, join(outDir, 'repo.git')]);
  for (const [i, run] of runner.runs.entries()) {
    for (const job of run.jobs) {
      if (!job.log.length) continue;
      const name = `${i + 1}-${run.event}-${job.name.replace(/[^a-z0-9]+/gi, '_')}.log`;
      // Like the Actions log viewer: each line with its time, here in ms since the job started.
      const lines = job.log.map((line, n) => `${`+${Math.round((job.logAt?.[n] ?? job.startedAt) - job.startedAt)}ms`.padStart(9)} ${line}`);
      await writeFile(join(outDir, 'logs', name), `${lines.join('\n')}\n`);
    }
  }
}

/**
 * A scenario that scripts no critic gets one that finds every criterion it is asked about
 * met, citing the criterion, and one that scripts no retrospector gets one with nothing to
 * propose, so scenarios about other things need not script the end of a run. Scenarios
 * about either script it like any role.
 */
export function withDefaultReviewers(script: Script): Script {
  if (script.entries.some((e) => e.role === 'critic') && script.entries.some((e) => e.role === 'retrospector')) return script;
  const scriptedCritic = script.entries.some((e) => e.role === 'critic');
  const own = script.respond;
  return {
    ...script,
    respond: (request) => {
      const answered = own?.(request);
      if (answered !== undefined) return answered;
      if (request.role === 'retrospector' && request.turn === 0 && !script.entries.some((e) => e.role === 'retrospector')) {
        return {
          content: [
            {
              type: 'tool_use',
              name: 'submit_retrospective',
              input: { summary: 'The default retrospector of a scenario that does not script one has nothing to add.' },
            },
          ],
        };
      }
      if (scriptedCritic || request.role !== 'critic' || request.turn > 0) return undefined;
      const first = request.body.messages.find((m) => m.role === 'user');
      const text =
        typeof first?.content === 'string' ? first.content : (first?.content ?? []).map((b) => (b.type === 'text' ? String(b.text ?? '') : '')).join('\n');
      const section = /## Criteria for you to judge\n([\s\S]*?)\n\n/.exec(text)?.[1] ?? '';
      const ids = [...section.matchAll(/^- (c\d+): (.*)$/gm)].map((m) => ({ id: m[1]!, text: m[2]! }));
      return {
        content: [
          {
            type: 'tool_use',
            name: 'submit_judgment',
            input: {
              evaluations: ids.map((c) => ({ criterion: c.id, met: true, evidence: [`(scenario's default critic) checked: ${c.text}`], confidence: 0.9 })),
              overall_reason: ids.length
                ? 'The default critic of a scenario that does not script one marks the criteria it was given met.'
                : 'The default critic of a scenario that does not script one judges nothing itself.',
            },
          },
        ],
      };
    },
  };
}

/** A scenario's attachment as bytes: a real PNG of the size asked for (one grey pixel row repeated), a JPEG's header, or the text; padded when asked. */
function attachmentBytes(a: Scenario['attachments'][string]): Buffer {
  const body = 'png' in a ? pngOf(a.png.width, a.png.height) : 'jpeg' in a ? jpegOf(a.jpeg.width, a.jpeg.height) : Buffer.from(a.text, 'utf8');
  return a.pad_to && a.pad_to > body.length ? Buffer.concat([body, Buffer.alloc(a.pad_to - body.length, 0x20)]) : body;
}
