import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { ownTempDirFor } from '../sandbox/own-temp';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';
import { AnthropicModel } from '../adapters/anthropic/model';
import { FailoverModel } from '../adapters/anthropic/failover';
import { fallbackModelFor, type Provider } from '../domain/providers';
import { LocalForge, localLinks } from '../adapters/local/forge';
import { projectFileAt, projectGit, repositoryTop } from '../adapters/local/project-git';
import { LocalStateStore, processAlive } from '../adapters/local/state-store';
import { clearWorktrees, createWorktree } from '../adapters/local/worktree';
import { providerClient, ProviderSetupError } from '../adapters/anthropic/providers';
import { ScriptedModel, ScriptError } from '../adapters/scripted/model';
import { systemClock } from '../clock';
import { CONFIG_PATH, ConfigError, type Config } from '../config/schema';
import { SECRET_VARIABLES } from '../sandbox/cloud-credentials';
import type { Judgment } from '../domain/judgment';
import { isTerminal } from '../domain/run-state';
import type { LocalAdapters, Log, Model, ModelFailover } from '../ports';
import { renderPlanComment } from '../render/plan-comment';
import { localCostLine } from '../render/cost';
import { killRunningCommands } from '../sandbox/command-runner';
import { parseJson, paths, readRun, readView } from '../state/run-files';
import { withoutMarkerLines } from '../text/markdown';
import { addSecret, redact } from '../text/redact';
import { CREW_VERSION } from '../version';
import { parseArgs, USAGE, type Command } from './args';
import { LocalEngine, readRequest, type Ending, type Prompter } from '../local/engine';
import { LiveView, type Output } from '../local/live-view';
import { localSandboxStatement } from '../local/sandbox-statement';
import { confirmSetup } from '../local/setup-approval';
import { readTaskFile } from '../local/task-file';
import { localConfig, unsandboxedAskedIn } from '../config/local';
import { clock } from '../local/terminal-text';
import { ensureCrewDir, runNumbersOf, UsageError, type Project } from '../local/workspace';
import { localBranches } from '../domain/refs';
import { runEval } from '../eval';
import { InstancesError } from '../eval/instances';
import { LOCAL_RUN, localRunOfBranch, localStatePrefix, runsDir } from '../domain/local-runs';
import { terminalSurface } from '../domain/surface';
import { createClient } from '../adapters/github/octokit';
import { GitHubRepositorySettings } from '../adapters/github/repository-settings';
import { diagnose, healthy } from '../domain/doctor';
import { gatherFacts } from '../doctor/gather';
import { doctorJson, doctorText } from '../doctor/report';
import { init, InitDeclined } from '../init/index';
import { agentRunLabel } from '../domain/trajectory';
import { terminalTrajectory } from '../render/trajectory';
import { readTrajectories, trajectoriesDir } from '../trajectory/files';

/** What a local run was started with, kept beside its state for `--resume`. */
interface RunOptions {
  overrides: Record<string, unknown>;
  maxIterations?: number;
  /** `--allow-unsandboxed` was given when the run started (or on a resume). */
  allowUnsandboxed?: boolean;
  /** `--provider` / `--fallback-provider`, kept so a resumed run talks to the same place unless told otherwise. */
  provider?: Provider;
  fallbackProvider?: Provider;
  /** The `file://` URLs of the `--image` files: the only files the run reads as images. */
  images?: string[];
}

/** A run started before options were kept has none; a damaged file is said, not guessed around. */
async function readOptions(file: string): Promise<RunOptions> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return { overrides: {} };
  try {
    return JSON.parse(text) as RunOptions;
  } catch (e) {
    throw new UsageError(`${file} is not valid JSON (${(e as Error).message}): it holds what the run was started with. Fix or delete it, then resume again.`);
  }
}

/** The `crew` command: exit 0 done, 1 not done, 2 usage or configuration error, 130 interrupted. */
export async function main(argv: string[], out: Output = process.stdout, tty = Boolean(process.stdout.isTTY)): Promise<number> {
  let command: Command;
  try {
    command = parseArgs(argv, process.cwd());
    if (command.kind === 'help') {
      out.write(`${USAGE}\n`);
      return 0;
    }
    if (command.kind === 'version') {
      out.write(`crew ${CREW_VERSION}\n`);
      return 0;
    }
    if (command.kind === 'doctor') return await doctor(command, out);
    if (command.kind === 'eval') return await evaluate(command, out);
    const project = await openProject(resolve(command.project));
    if (command.kind === 'init') return await initCommand(project, command, out);
    if (command.kind === 'list') return await list(project, out);
    if (command.kind === 'status') return await status(project, command.run, out);
    if (command.kind === 'show') return await show(project, command, out);
    return await run(project, command, out, tty);
  } catch (e) {
    if (e instanceof InitDeclined) {
      out.write(`crew: ${e.message}\n`);
      return 1;
    }
    if (e instanceof UsageError) {
      out.write(`crew: ${e.message}\n`);
      return 2;
    }
    if (e instanceof InstancesError) {
      out.write(`crew eval: ${e.message}\nNothing was played.\n`);
      return 2;
    }
    if (e instanceof ConfigError || e instanceof ScriptError) {
      out.write(`crew: ${e.message}\nThe run did not start.\n`);
      return 2;
    }
    out.write(`crew: ${redact((e as Error).message)}\n`);
    return 1;
  }
}

/** `OWNER/NAME` from a remote's URL (https://github.com/o/n.git, git@github.com:o/n.git, or any host's last two path parts). */
function repoOfUrl(url: string): string | undefined {
  const m = /[:/]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url.trim());
  return m ? `${m[1]}/${m[2]}` : undefined;
}

async function originRepo(dir: string): Promise<string | undefined> {
  const top = await repositoryTop(dir).catch(() => undefined);
  if (!top) return undefined;
  const url = await projectGit(top)
    .raw(['remote', 'get-url', 'origin'])
    .catch(() => '');
  return repoOfUrl(url);
}

/** `crew init`: the workflow and .github/crew.yml for this clone, shown and asked about first. */
async function initCommand(project: Project, cmd: Extract<Command, { kind: 'init' }>, out: Output): Promise<number> {
  const lines = process.stdin.isTTY ? lineReader() : undefined;
  try {
    await init({
      dir: project.dir,
      form: cmd.form,
      yes: cmd.yes,
      ask: lines ? async (q) => (out.write(`${q} `), /^y(es)?$/i.test(((await lines.next()) ?? '').trim())) : undefined,
      say: (t) => out.write(`${t}\n`),
      githubRepo: await originRepo(project.dir),
    });
    return 0;
  } finally {
    lines?.close();
  }
}

/** `crew doctor`: the repository's setup on GitHub, read with the person's token; exit 1 when something needs fixing. */
async function doctor(cmd: Extract<Command, { kind: 'doctor' }>, out: Output): Promise<number> {
  const token = process.env.GITHUB_TOKEN || process.env.GH_TOKEN;
  if (!token)
    throw new UsageError(
      "crew doctor reads the repository's settings through GitHub's API: set GITHUB_TOKEN or GH_TOKEN (GITHUB_TOKEN=$(gh auth token) npx crew doctor). An admin's token sees every setting.",
    );
  addSecret(token);
  const repo = cmd.repo ?? (await originRepo(resolve(cmd.project)));
  if (!repo) throw new UsageError(`crew doctor needs the repository: run it in a clone whose origin is on GitHub, or pass --repo OWNER/NAME.`);
  const [owner, name] = repo.split('/') as [string, string];
  const quiet = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
  const settings = new GitHubRepositorySettings(createClient(token, quiet), { owner, repo: name }, process.env.GITHUB_SERVER_URL ?? 'https://github.com');
  const facts = await gatherFacts(settings, { asking: 'token' }).catch((e: unknown) => {
    const status = (e as { status?: number }).status;
    if (status === 404 || status === 401)
      throw new UsageError(`GitHub shows no repository ${repo} to this token (${status}): check the name, and that the token can read it.`);
    throw e;
  });
  const findings = diagnose(facts);
  out.write(cmd.json ? doctorJson(facts, findings) : doctorText(facts, findings));
  return healthy(findings) ? 0 : 1;
}

/** The repository a local run works on; a clear error when `--project` is not one. */
async function openProject(dir: string): Promise<Project> {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`--project ${dir}: no such folder. Pass the folder of a git repository (the default is the current folder).`);
  const top = await repositoryTop(dir);
  if (!top)
    throw new UsageError(`${dir} is not inside a git repository. crew works on a repository's last commit: run \`git init\` and commit your files first.`);
  const git = projectGit(top);
  const head = (await git.raw(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => '')).trim();
  if (!head) throw new UsageError(`the repository at ${top} has no commits yet. crew works from the last commit: commit your files first.`);
  const branch = (await git.raw(['symbolic-ref', '--short', '-q', 'HEAD']).catch(() => '')).trim() || undefined;
  const dirty = (await git.raw(['status', '--porcelain', '--untracked-files=no'])).trim() !== '';
  return { dir: top, branch, head, dirty };
}

/**
 * The next run number: past every run folder and every `crew/local-<N>/…` branch, so a new
 * run never picks up branches an earlier run left (say, after `.crew/` was deleted).
 */
async function nextRunNumber(project: string): Promise<number> {
  const refs = await projectGit(project).raw(['for-each-ref', '--format=%(refname:short)', 'refs/heads/crew/']);
  const fromBranches = refs
    .split('\n')
    .map(localRunOfBranch)
    .filter((n): n is number => n !== undefined);
  return Math.max(0, ...fromBranches, ...(await runNumbersOf(project))) + 1;
}

/**
 * One crew process per run: a second `crew run --resume` of a run that is still going would
 * take its running tasks for dead and start them again. A holder that died leaves a stale claim.
 */
async function claimRun(runDir: string): Promise<() => Promise<void>> {
  await mkdir(runDir, { recursive: true });
  const file = join(runDir, '.session');
  const holder = Number(await readFile(file, 'utf8').catch(() => ''));
  if (holder && holder !== process.pid && processAlive(holder))
    throw new UsageError(`this run is already going in another crew process (pid ${holder}). Wait for it, or stop it with Ctrl-C there.`);
  await writeFile(file, String(process.pid));
  return () => rm(file, { force: true });
}

/**
 * Local mode's adapters over the person's repository (the engine sees only the ports): the run
 * files under .crew/runs/, the forge at the terminal, and a git worktree per job.
 */
function localAdapters(project: string, images: readonly string[]): LocalAdapters {
  return {
    state: new LocalStateStore(runsDir(project)),
    forge: (runDir, baseBranch, hooks) =>
      new LocalForge(runDir, project, baseBranch, {
        ...hooks,
        images,
        branchSha: async (b) => (await projectGit(project).raw(['rev-parse', `refs/heads/${b}`])).trim(),
      }),
    checkout: (dir, start) => createWorktree(project, dir, start),
    fileAt: (sha, path) => projectFileAt(project, sha, path),
  };
}

/** One provider's Model with the credentials of your own shell (ANTHROPIC_API_KEY, your AWS or gcloud setup). */
function localProviderModel(provider: Config['provider'], config: Config, log: Log, role: 'provider' | 'fallback_provider'): AnthropicModel {
  const as = role === 'fallback_provider' ? `fallback_provider is ${provider}, but ` : '';
  if (provider !== 'anthropic') {
    // Amazon Bedrock or Vertex AI, with the credentials of your own AWS or gcloud setup.
    for (const name of SECRET_VARIABLES) addSecret(process.env[name]);
    try {
      return new AnthropicModel(providerClient(provider, config), systemClock, log);
    } catch (e) {
      if (e instanceof ProviderSetupError)
        throw new UsageError(
          `${as}${e.missing} Set them in your shell (\`aws configure\` / \`gcloud auth application-default login\`), or set \`bedrock:\`/\`vertex:\` in ${CONFIG_PATH}.`,
        );
      throw e;
    }
  }
  const key = process.env.ANTHROPIC_API_KEY || process.env.ANTHROPIC_AUTH_TOKEN;
  // A gateway's token may match no known key pattern: redact it by value, as the Action does.
  addSecret(key);
  if (!key && !process.env.ANTHROPIC_BASE_URL) {
    throw new UsageError(
      `${as}no model to talk to. Set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=sk-ant-…), or ANTHROPIC_BASE_URL for an Anthropic-compatible gateway${as ? `, or remove fallback_provider from ${CONFIG_PATH}` : ', or try crew without a key: crew run … --scripted <replies.yaml>'}.`,
    );
  }
  // A gateway may need no key; the SDK still wants one, so a placeholder is sent.
  return new AnthropicModel(key || 'none', systemClock, log);
}

/**
 * The run's model: scripted replies, or the provider in force, failing over to `fallback_provider`
 * when it is set (once for the whole local run: one process). Failovers are added to `failovers`.
 */
function modelFrom(scripted: string | undefined, config: Config, warn: (m: string) => void, failovers: ModelFailover[]): Promise<Model> | Model {
  if (scripted) return ScriptedModel.load(resolve(scripted));
  const log = { info: () => undefined, warn, checkpoint: () => undefined };
  const primary = localProviderModel(config.provider, config, log, 'provider');
  if (!config.fallback) return primary;
  const fallback = localProviderModel(config.fallback.provider, config, log, 'fallback_provider');
  return new FailoverModel(primary, fallback, fallbackModelFor(config.models, config.fallback.models), systemClock, log, (f) => failovers.push(f));
}

async function run(project: Project, cmd: Extract<Command, { kind: 'run' }>, out: Output, tty: boolean): Promise<number> {
  if (cmd.maxIterations !== undefined && cmd.maxIterations > 10) throw new UsageError(`--max-iterations is at most 10 (got ${cmd.maxIterations}).`);
  const task = cmd.configFile ? await readTaskFile(resolve(cmd.configFile)) : undefined;
  await ensureCrewDir(project.dir);
  const store = new LocalStateStore(runsDir(project.dir));

  let runNo: number;
  let base: { branch: string; sha: string };
  let request: { title: string; body: string };
  let fresh = false;
  let images: string[] = [];
  if (cmd.resume !== undefined) {
    const numbers = await runNumbersOf(project.dir);
    runNo = cmd.resume === 'latest' ? (numbers.at(-1) ?? 0) : cmd.resume;
    if (!runNo || !numbers.includes(runNo))
      throw new UsageError(
        numbers.length
          ? `there is no run ${runNo} in ${runsDir(project.dir)} (runs: ${numbers.join(', ')}).`
          : `there are no runs to resume in ${project.dir}. Start one with crew run "task".`,
      );
    const rec = readRun(await store.load(localStatePrefix(runNo)), runNo, LOCAL_RUN);
    const req = await readRequest(store.runDir(runNo));
    if (!rec || !req) throw new UsageError(`run ${runNo} stopped before it was recorded; start a new one with crew run "task".`);
    if (rec.phase === 'COMPLETED' || rec.phase === 'ABORTED') {
      out.write(`Run ${runNo} has ended (${rec.phase.toLowerCase()}); there is nothing to resume. crew status ${runNo} shows it.\n`);
      return finalWords(store, runNo, { kind: 'ended' }, out);
    }
    base = rec.base;
    request = req;
  } else {
    const text = (task?.task ?? cmd.task!).trim();
    const criteria = [...(task?.criteria ?? []), ...cmd.criteria];
    const title = text.split('\n')[0]!.slice(0, 120);
    request = { title, body: criteria.length ? `${text}\n\nDone when:\n${criteria.map((c) => `- ${c}`).join('\n')}\n` : `${text}\n` };
    // An image given with --image is one more picture in the request, as a pasted screenshot is in an issue.
    images = cmd.images.map(imageFileUrl);
    if (images.length) request.body += `\n${cmd.images.map((f, i) => `![${basename(f).replace(/[[\]()]/g, '_')}](${images[i]})`).join('\n')}\n`;
    runNo = await nextRunNumber(project.dir);
    base = { branch: project.branch ?? 'HEAD', sha: project.head };
    fresh = true;
  }
  // A resumed run keeps what it was started with (the task file's keys, --max-iterations) unless told otherwise.
  const optionsFile = join(store.runDir(runNo), '.options.json');
  const saved: RunOptions = fresh ? { overrides: task?.overrides ?? {} } : await readOptions(optionsFile);
  const options: RunOptions = {
    overrides: saved.overrides,
    ...((cmd.maxIterations ?? saved.maxIterations) ? { maxIterations: cmd.maxIterations ?? saved.maxIterations } : {}),
    ...(cmd.allowUnsandboxed || saved.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
    ...((cmd.provider ?? saved.provider) ? { provider: cmd.provider ?? saved.provider } : {}),
    ...((cmd.fallbackProvider ?? saved.fallbackProvider) ? { fallbackProvider: cmd.fallbackProvider ?? saved.fallbackProvider } : {}),
    ...((fresh ? images : saved.images)?.length ? { images: fresh ? images : saved.images } : {}),
  };
  const crewYml = await projectFileAt(project.dir, base.sha, CONFIG_PATH);
  const config = localConfig(
    crewYml,
    options.overrides,
    {
      maxIterations: options.maxIterations,
      allowUnsandboxed: options.allowUnsandboxed,
      provider: options.provider,
      fallbackProvider: options.fallbackProvider,
    },
    CONFIG_PATH,
  );
  const taskName = cmd.configFile ?? 'the task file this run was started with';
  const notes = unsandboxedAskedIn(crewYml, options.overrides, { config: CONFIG_PATH, task: taskName }).map(
    (f) => `note: allow_unsandboxed in ${f} is not used on your machine: only you can turn the sandbox off, with crew run … --allow-unsandboxed.`,
  );

  const view = new LiveView(out, tty);
  const failovers: ModelFailover[] = [];
  const model = await modelFrom(cmd.scripted, config, (m) => view.message(`⚠ ${redact(m)}`), failovers);

  const lines = lineReader();
  // Nothing runs, and the model is not asked anything, before the person has allowed the repository's setup commands.
  try {
    await confirmSetup({
      project: project.dir,
      commands: config.setup,
      from: `\`setup:\` in ${'setup' in options.overrides ? taskName : CONFIG_PATH}`,
      allowed: cmd.allowSetup,
      ask: process.stdin.isTTY ? async (q) => (out.write(`${q} `), lines.next()) : undefined,
      say: (t) => out.write(`${t}\n`),
    });
  } catch (e) {
    lines.close();
    throw e;
  }
  const prompter: Prompter = {
    async ask(question, multiline) {
      out.write(`${question}\n`);
      const got: string[] = [];
      for (;;) {
        const line = await lines.next();
        if (line === undefined) return got.length ? got.join('\n') : undefined;
        if (!multiline) return line;
        if (!line.trim()) return got.join('\n');
        got.push(line);
      }
    },
  };
  const release = await claimRun(store.runDir(runNo));
  await writeFile(optionsFile, `${JSON.stringify(options, null, 2)}\n`);
  // One folder per user: another user's crew (root's, say) may have made a shared one this user cannot write.
  const worktrees = join(ownTempDirFor('worktrees'), createHash('sha256').update(project.dir).digest('hex').slice(0, 12), String(runNo));
  await clearWorktrees(project.dir, worktrees);
  const engine = new LocalEngine({
    project: project.dir,
    run: runNo,
    base,
    config,
    model,
    failovers,
    view,
    prompter,
    verbose: cmd.verbose,
    worktrees,
    user: userInfo().username || 'you',
    adapters: localAdapters(project.dir, options.images ?? []),
  });

  out.write(`crew ${CREW_VERSION} · run ${runNo} · ${project.dir} · from ${base.branch} at ${base.sha.slice(0, 7)}\n`);
  if (fresh && project.dirty) out.write('note: you have uncommitted changes; crew works from the last commit and does not touch your working tree.\n');
  out.write(`${await localSandboxStatement(config.allow_unsandboxed, undefined, config.network)}\n`);
  for (const n of notes) out.write(`${n}\n`);
  if (cmd.scripted) out.write(`model: scripted replies from ${cmd.scripted}\n`);
  out.write('\n');

  // Ctrl-C: running workers push their work so far and the run is marked interrupted; a second Ctrl-C stops at once.
  let interrupting: Promise<void> | undefined;
  const onSignal = () => {
    if (interrupting) {
      out.write(`\nStopped at once. crew run --resume ${runNo} cleans up and continues.\n`);
      process.exit(130);
    }
    view.message(`\nInterrupted. Saving the work so far… (Ctrl-C again to stop at once)`);
    killRunningCommands();
    lines.close();
    interrupting = engine.interrupt();
    // Should a step not come back (a model call that ignores the signal), do not wait for it for ever.
    setTimeout(() => process.exit(130), 15_000).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (fresh) await engine.comment('/crew run', request);
    else {
      const current = await engine.loadView();
      const phase = current?.run.phase;
      // A run crew itself failed carries on from its phase; one whose tasks failed runs them again.
      if (phase === 'FAILED') await engine.comment(current!.run.failure?.resumeFrom ? '/crew resume' : '/crew retry', request);
      else if (phase && !isTerminal(phase) && phase !== 'ESCALATING' && phase !== 'AWAITING_APPROVAL') await engine.comment('/crew resume', request);
    }
    const ending = await engine.drive(request);
    if (interrupting) {
      await interrupting;
      view.stop();
      out.write(`\nRun ${runNo} interrupted; its work so far is saved. crew run --resume ${runNo} continues it.\n`);
      return 130;
    }
    view.stop();
    return await finalWords(store, runNo, ending, out);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    lines.close();
    await clearWorktrees(project.dir, worktrees).catch(() => undefined);
    await release();
  }
}

/** `crew eval`: the instances played each way (src/eval/); Ctrl-C stops at once, and the same command goes on later. */
async function evaluate(cmd: Extract<Command, { kind: 'eval' }>, out: Output): Promise<number> {
  const config = localConfig(undefined, {}, { ...(cmd.provider ? { provider: cmd.provider } : {}) }, CONFIG_PATH);
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130);
    out.write('\nInterrupted: stopping the instances being played. The same crew eval command goes on from here.\n');
    stop.abort();
    killRunningCommands();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const { results, interrupted } = await runEval({
      instances: cmd.instances,
      ...(cmd.ids ? { ids: cmd.ids } : {}),
      ...(cmd.limit ? { limit: cmd.limit } : {}),
      ways: cmd.ways,
      concurrency: cmd.concurrency,
      out: cmd.out,
      ...(cmd.scripted ? { scripted: cmd.scripted } : {}),
      ...(cmd.provider ? { provider: cmd.provider } : {}),
      allowUnsandboxed: cmd.allowUnsandboxed,
      ...(cmd.maxIterations ? { maxIterations: cmd.maxIterations } : {}),
      budget: { tokens: cmd.maxTokens, costUsd: cmd.maxCostUsd, ms: cmd.maxMinutes * 60_000 },
      cli: process.argv[1]!,
      model: async (scripted) => modelFrom(scripted, config, (m) => out.write(`⚠ ${redact(m)}\n`), []),
      modelName: cmd.scripted ? 'scripted' : config.models.sonnet,
      say: (line) => out.write(`${line}\n`),
      signal: stop.signal,
      readRun: async (project, n) => readView(await new LocalStateStore(runsDir(project)).load(localStatePrefix(n)), n, LOCAL_RUN),
    });
    if (interrupted) {
      out.write(`Stopped with ${results.length} done; run the same command to go on.\n`);
      return 130;
    }
    out.write(`\nDone: ${results.length} played. ${join(resolve(cmd.out), 'results.md')} has the results.\n`);
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The end of a run at the terminal: status, the critic's reasons per criterion, artifacts and branch. */
async function finalWords(store: LocalStateStore, runNo: number, ending: { kind: Ending['kind'] }, out: Output): Promise<number> {
  const snap = await store.load(localStatePrefix(runNo));
  const v = readView(snap, runNo, LOCAL_RUN);
  const folder = store.runDir(runNo);
  const w = (s = '') => out.write(`${s}\n`);
  w();
  if (!v) {
    w(`Run ${runNo} stopped before it had a plan. The messages above say why; crew run --resume ${runNo} tries again.`);
    return 1;
  }
  const iteration = v.run.review?.iteration ?? 0;
  const judgment = iteration ? parseJson<Judgment>(snap, paths.judgment(runNo, LOCAL_RUN, iteration)) : undefined;
  const passed = v.run.phase === 'COMPLETED' && judgment?.verdict === 'PASS';
  const word =
    ending.kind === 'waiting'
      ? 'waiting for your answer'
      : ending.kind === 'stalled'
        ? `stopped while ${v.run.phase.toLowerCase()}`
        : passed
          ? 'completed'
          : v.run.phase === 'COMPLETED'
            ? 'completed, accepted with unmet criteria'
            : v.run.phase.toLowerCase();
  w(`Run ${runNo}: ${word}${iteration ? ` after ${iteration} critic iteration${iteration === 1 ? '' : 's'}` : ''}.`);
  if (judgment) {
    w(`Critic: ${judgment.verdict} — ${judgment.overallReason}`);
    for (const e of judgment.evaluations) {
      const mark = e.met === true ? '✔' : e.met === false ? '✘' : '⚠';
      w(`  ${mark} ${e.criterion} ${e.text}${e.met === null && e.error ? ` (could not be evaluated: ${e.error})` : ''}`);
      const why = e.evidence[0];
      if (why && e.met !== true) w(`      ${why.split('\n')[0]!.slice(0, 160)}`);
    }
    if (judgment.suggestedNextAction && !passed) w(`  Next: ${judgment.suggestedNextAction}`);
  }
  if (v.run.failure) w(`What went wrong (${v.run.failure.step}): ${v.run.failure.message}`);
  w(localCostLine(v));
  const result = localBranches.integration(runNo, LOCAL_RUN);
  w('');
  if (v.run.pr) w(`Result branch: ${result}  (review: git diff ${v.run.base.sha.slice(0, 7)}...${result}; merge: git merge ${result})`);
  const files = ['report.md', 'retrospective.md', 'history.jsonl', 'execution_log.yaml', 'crew.log'].filter((f) => existsSync(join(folder, f)));
  w(`Run files: ${folder}${files.length ? ` (${files.join(', ')})` : ''}`);
  const canContinue =
    ending.kind === 'stalled' ||
    Boolean(v.run.failure?.resumeFrom) ||
    (v.run.phase === 'FAILED' && [...v.tasks.values()].some((t) => ['failure', 'partial', 'timeout', 'blocked'].includes(t.status)));
  if (ending.kind === 'waiting') w(`crew is waiting for an answer: run crew run --resume ${runNo} in a terminal to give it.`);
  else if (canContinue) w(`crew run --resume ${runNo} continues this run.`);
  return passed ? 0 : 1;
}

/** A run whose crew process is gone while it was working (stopped at once, or the machine went down). */
async function orphaned(store: LocalStateStore, n: number, phase: string): Promise<boolean> {
  if (isTerminal(phase as never) || ['ESCALATING', 'AWAITING_APPROVAL', 'INTERRUPTED'].includes(phase)) return false;
  const holder = Number(await readFile(join(store.runDir(n), '.session'), 'utf8').catch(() => ''));
  return !holder || !processAlive(holder);
}

async function list(project: Project, out: Output): Promise<number> {
  const numbers = await runNumbersOf(project.dir);
  if (!numbers.length) {
    out.write(`No crew runs in ${project.dir} yet. Start one with crew run "task" --criteria "…".\n`);
    return 0;
  }
  const store = new LocalStateStore(runsDir(project.dir));
  const rows = [['RUN', 'STATUS', 'ITERATIONS', 'DATE', 'TASK']];
  for (const n of numbers) {
    const rec = readRun(await store.load(localStatePrefix(n)), n, LOCAL_RUN);
    if (!rec) {
      rows.push([String(n), 'not started', '0', '', '']);
      continue;
    }
    const state =
      rec.phase === 'ESCALATING' || rec.phase === 'AWAITING_APPROVAL'
        ? 'waiting for you'
        : (await orphaned(store, n, rec.phase))
          ? 'stopped (--resume continues)'
          : rec.phase.toLowerCase();
    rows.push([String(n), state, String(rec.review?.iteration ?? 0), rec.createdAt.replace('T', ' ').replace(/:\d\dZ$/, 'Z'), rec.title.slice(0, 60)]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) out.write(`${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}\n`);
  return 0;
}

async function status(project: Project, run: number | undefined, out: Output): Promise<number> {
  const numbers = await runNumbersOf(project.dir);
  const n = run ?? numbers.at(-1);
  if (n === undefined) {
    out.write(`No crew runs in ${project.dir} yet.\n`);
    return 0;
  }
  if (!numbers.includes(n)) throw new UsageError(`there is no run ${n} (runs: ${numbers.join(', ') || 'none'}).`);
  const store = new LocalStateStore(runsDir(project.dir));
  const view = readView(await store.load(localStatePrefix(n)), n, LOCAL_RUN);
  if (!view) {
    out.write(`Run ${n} stopped before it was recorded.\n`);
    return 0;
  }
  const links = localLinks(project.dir, store.runDir(n));
  const text = withoutMarkerLines(renderPlanComment(view, links, terminalSurface(n, { stopped: await orphaned(store, n, view.run.phase) })));
  out.write(`${text}\n`);
  if (!isTerminal(view.run.phase)) out.write(`\nLast change ${clock(Date.now() - Date.parse(view.run.updatedAt))} ago.\n`);
  if (existsSync(trajectoriesDir(store.runDir(n))))
    out.write(`\nWhat the agents did: crew show ${n} (the records are in ${trajectoriesDir(store.runDir(n))}).\n`);
  return 0;
}

/** `crew show`: a run's trajectories, each turn with the model's words, its tool calls, exit codes and cost; `--json` prints them as kept. */
async function show(project: Project, c: Extract<Command, { kind: 'show' }>, out: Output): Promise<number> {
  const numbers = await runNumbersOf(project.dir);
  const n = c.run ?? numbers.at(-1);
  if (n === undefined) {
    out.write(`No crew runs in ${project.dir} yet.\n`);
    return 0;
  }
  if (!numbers.includes(n)) throw new UsageError(`there is no run ${n} (runs: ${numbers.join(', ') || 'none'}).`);
  let all;
  try {
    all = readTrajectories(new LocalStateStore(runsDir(project.dir)).runDir(n));
  } catch (e) {
    out.write(`crew: ${(e as Error).message}\n`);
    return 1;
  }
  if (!all.length) {
    out.write(`Run ${n} kept no trajectories (with transcripts: none crew keeps none, and runs of an older crew have none).\n`);
    return 1;
  }
  const picked = all.filter(
    ({ record: r }) =>
      (c.task === undefined || r.task === c.task) && (c.attempt === undefined || r.attempt === c.attempt) && (c.agent === undefined || r.agent === c.agent),
  );
  if (!picked.length) {
    const asked = [c.agent, c.task, c.attempt === undefined ? undefined : `attempt ${c.attempt}`].filter(Boolean).join(' ');
    out.write(`No agent run of run ${n} is ${asked}. It has: ${[...new Set(all.map(({ record }) => agentRunLabel(record)))].join('; ')}.\n`);
    return 1;
  }
  if (c.json) {
    for (const p of picked) out.write(`${p.line}\n`);
    return 0;
  }
  picked.forEach(({ record }, i) => out.write(`${i ? '\n' : ''}${terminalTrajectory(record).join('\n')}\n`));
  return 0;
}

/** Lines from standard input, one at a time; undefined once the input has ended. */
function lineReader(): { next(): Promise<string | undefined>; close(): void } {
  const queue: string[] = [];
  const waiters: Array<(l: string | undefined) => void> = [];
  let ended = !process.stdin.readable;
  const rl = ended ? undefined : createInterface({ input: process.stdin, terminal: false });
  rl?.on('line', (l) => (waiters.length ? waiters.shift()!(l) : queue.push(l)));
  rl?.on('close', () => {
    ended = true;
    while (waiters.length) waiters.shift()!(undefined);
  });
  return {
    next: () => (queue.length ? Promise.resolve(queue.shift()) : ended ? Promise.resolve(undefined) : new Promise((r) => waiters.push(r))),
    close: () => rl?.close(),
  };
}

/** `--image FILE` as the URL the request carries; a file that is not there is a usage error, before any run starts. */
function imageFileUrl(file: string): string {
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile())
    throw new UsageError(`--image ${file}: there is no such file. Give the path of a PNG, JPEG, GIF or WebP image.`);
  return pathToFileURL(path).href.replace(/\(/g, '%28').replace(/\)/g, '%29');
}
