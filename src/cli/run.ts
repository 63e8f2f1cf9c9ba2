import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectFileAt } from '../adapters/local/project-git';
import { LocalStateStore } from '../adapters/local/state-store';
import { clearWorktrees } from '../adapters/local/worktree';
import { localConfig, unsandboxedAskedIn } from '../config/local';
import { CONFIG_PATH, type Config } from '../config/schema';
import type { Judgment } from '../domain/judgment';
import { LOCAL_RUN, localStatePrefix, runsDir } from '../domain/local-runs';
import type { Provider } from '../domain/providers';
import { localBranches } from '../domain/refs';
import { isTerminal } from '../domain/run-state';
import { LocalEngine, readRequest, type Ending, type Prompter } from '../local/engine';
import { LiveView, type Output } from '../local/live-view';
import { localSandboxStatement } from '../local/sandbox-statement';
import { confirmSetup } from '../local/setup-approval';
import { readTaskFile, type TaskFile } from '../local/task-file';
import { ensureCrewDir, runNumbersOf, UsageError, type Project } from '../local/workspace';
import type { ModelFailover } from '../ports';
import { localCostLine } from '../render/cost';
import { killRunningCommands } from '../sandbox/running-commands';
import { ownTempDirFor } from '../sandbox/own-temp';
import { parseJson, paths, readRun, readView } from '../state/run-files';
import { redact } from '../text/redact';
import { CREW_VERSION } from '../version';
import type { Command } from './args';
import { claimRun, lineReader, localAdapters, localModel, nextRunNumber } from './compose';

type RunCommand = Extract<Command, { kind: 'run' }>;

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

/** `crew run`: a new run, or `--resume` of one; the run played to its end or to a question, then the final words. */
export async function run(project: Project, cmd: RunCommand, out: Output, tty: boolean): Promise<number> {
  if (cmd.maxIterations !== undefined && cmd.maxIterations > 10) throw new UsageError(`--max-iterations is at most 10 (got ${cmd.maxIterations}).`);
  const task = cmd.configFile ? await readTaskFile(resolve(cmd.configFile)) : undefined;
  await ensureCrewDir(project.dir);
  const store = new LocalStateStore(runsDir(project.dir));
  const started = await startOrResume(project, cmd, task, store, out);
  if ('ended' in started) return finalWords(store, started.ended, { kind: 'ended' }, out);
  const { runNo, base, fresh } = started;
  // A resumed run keeps what it was started with (the task file's keys, --max-iterations) unless told otherwise.
  const optionsFile = join(store.runDir(runNo), '.options.json');
  const options = runOptions(cmd, fresh ? { overrides: task?.overrides ?? {}, images: started.images } : await readOptions(optionsFile));
  const { config, notes, taskName } = await runConfig(project.dir, base.sha, options, cmd.configFile);

  const view = new LiveView(out, tty);
  const failovers: ModelFailover[] = [];
  const model = await localModel(cmd.scripted, config, (m) => view.message(`⚠ ${redact(m)}`), failovers);

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
    prompter: linePrompter(lines, out),
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
  try {
    return await drive(engine, { runNo, request: started.request, fresh, view, lines, out, store });
  } finally {
    lines.close();
    // The run's outcome is what matters here; a worktree left behind is said, for the person to remove.
    await clearWorktrees(project.dir, worktrees).catch((e: unknown) =>
      out.write(
        `crew: could not remove the job worktrees in ${worktrees} (${e instanceof Error ? e.message : String(e)}); delete that folder, then run \`git worktree prune\` in ${project.dir}.\n`,
      ),
    );
    await release();
  }
}

type Started = { runNo: number; base: { branch: string; sha: string }; request: { title: string; body: string }; fresh: boolean; images: string[] };

/** The run to play: a new one numbered past every earlier run, or the one `--resume` names (unless it has ended). */
async function startOrResume(
  project: Project,
  cmd: RunCommand,
  task: TaskFile | undefined,
  store: LocalStateStore,
  out: Output,
): Promise<Started | { ended: number }> {
  if (cmd.resume === undefined) {
    const text = (task?.task ?? cmd.task!).trim();
    const criteria = [...(task?.criteria ?? []), ...cmd.criteria];
    const title = text.split('\n')[0]!.slice(0, 120);
    const request = { title, body: criteria.length ? `${text}\n\nDone when:\n${criteria.map((c) => `- ${c}`).join('\n')}\n` : `${text}\n` };
    // An image given with --image is one more picture in the request, as a pasted screenshot is in an issue.
    const images = cmd.images.map(imageFileUrl);
    if (images.length) request.body += `\n${cmd.images.map((f, i) => `![${basename(f).replace(/[[\]()]/g, '_')}](${images[i]})`).join('\n')}\n`;
    return { runNo: await nextRunNumber(project.dir), base: { branch: project.branch ?? 'HEAD', sha: project.head }, request, fresh: true, images };
  }
  const numbers = await runNumbersOf(project.dir);
  const runNo = cmd.resume === 'latest' ? (numbers.at(-1) ?? 0) : cmd.resume;
  if (!runNo || !numbers.includes(runNo))
    throw new UsageError(
      numbers.length
        ? `there is no run ${runNo} in ${runsDir(project.dir)} (runs: ${numbers.join(', ')}).`
        : `there are no runs to resume in ${project.dir}. Start one with crew run "task".`,
    );
  const rec = readRun(await store.load(localStatePrefix(runNo)), runNo, LOCAL_RUN);
  const request = await readRequest(store.runDir(runNo));
  if (!rec || !request) throw new UsageError(`run ${runNo} stopped before it was recorded; start a new one with crew run "task".`);
  if (rec.phase === 'COMPLETED' || rec.phase === 'ABORTED') {
    out.write(`Run ${runNo} has ended (${rec.phase.toLowerCase()}); there is nothing to resume. crew status ${runNo} shows it.\n`);
    return { ended: runNo };
  }
  return { runNo, base: rec.base, request, fresh: false, images: [] };
}

/** What the run goes by: the saved options (or a new run's), with what this command line says on top. */
function runOptions(cmd: RunCommand, saved: RunOptions): RunOptions {
  return {
    overrides: saved.overrides,
    ...((cmd.maxIterations ?? saved.maxIterations) ? { maxIterations: cmd.maxIterations ?? saved.maxIterations } : {}),
    ...(cmd.allowUnsandboxed || saved.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
    ...((cmd.provider ?? saved.provider) ? { provider: cmd.provider ?? saved.provider } : {}),
    ...((cmd.fallbackProvider ?? saved.fallbackProvider) ? { fallbackProvider: cmd.fallbackProvider ?? saved.fallbackProvider } : {}),
    ...(saved.images?.length ? { images: saved.images } : {}),
  };
}

/** The run's configuration from the crew.yml at its base, and a note for each file that asked for `allow_unsandboxed`. */
async function runConfig(project: string, sha: string, options: RunOptions, configFile: string | undefined) {
  const crewYml = await projectFileAt(project, sha, CONFIG_PATH);
  const config: Config = localConfig(
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
  const taskName = configFile ?? 'the task file this run was started with';
  const notes = unsandboxedAskedIn(crewYml, options.overrides, { config: CONFIG_PATH, task: taskName }).map(
    (f) => `note: allow_unsandboxed in ${f} is not used on your machine: only you can turn the sandbox off, with crew run … --allow-unsandboxed.`,
  );
  return { config, notes, taskName };
}

/** The person's answers at the prompt: one line, or lines up to an empty one. */
function linePrompter(lines: ReturnType<typeof lineReader>, out: Output): Prompter {
  return {
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
}

/** The engine's run from its first comment to its end, with Ctrl-C saving the work so far. */
async function drive(
  engine: LocalEngine,
  o: { runNo: number; request: { title: string; body: string }; fresh: boolean; view: LiveView; lines: { close(): void }; out: Output; store: LocalStateStore },
): Promise<number> {
  const { runNo, request, view, out } = o;
  // Ctrl-C: running workers push their work so far and the run is marked interrupted; a second Ctrl-C stops at once.
  let interrupting: Promise<void> | undefined;
  const onSignal = () => {
    if (interrupting) {
      out.write(`\nStopped at once. crew run --resume ${runNo} cleans up and continues.\n`);
      process.exit(130);
    }
    view.message(`\nInterrupted. Saving the work so far… (Ctrl-C again to stop at once)`);
    killRunningCommands();
    o.lines.close();
    interrupting = engine.interrupt();
    // Should a step not come back (a model call that ignores the signal), do not wait for it for ever.
    setTimeout(() => process.exit(130), 15_000).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (o.fresh) await engine.comment('/crew run', request);
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
    return await finalWords(o.store, runNo, ending, out);
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

/** `--image FILE` as the URL the request carries; a file that is not there is a usage error, before any run starts. */
function imageFileUrl(file: string): string {
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile())
    throw new UsageError(`--image ${file}: there is no such file. Give the path of a PNG, JPEG, GIF or WebP image.`);
  return pathToFileURL(path).href.replace(/\(/g, '%28').replace(/\)/g, '%29');
}
