import { localTrajectories } from '../trajectory/files';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isoSeconds, systemClock } from '../clock';
import type { Config } from '../config/schema';
import { promptChoices } from '../domain/commands';
import { localBranches } from '../domain/refs';
import { LOCAL_OPT_IN, LOCAL_RUN, localStatePrefix } from '../domain/local-runs';
import { terminalSurface } from '../domain/surface';
import { playWorkflowRun, type JobInputs, type WorkflowEvent } from '../domain/workflow-jobs';
import { identify } from '../domain/model-request';
import { isTerminal, type RunView } from '../domain/run-state';
import type { CommentEvent, CrewEvent } from '../event';
import type { LocalAdapters, Log, Model, ModelFailover, RunFolders, StateSnapshot, TerminalForge } from '../ports';
import { planMarker } from '../render/plan-comment';
import { reportMarker } from '../render/report';
import { retroMarker } from '../domain/retrospective';
import { readView, writeRun } from '../state/run-files';
import { advance } from '../steps/advance';
import { withPlanCommentSync } from '../steps/plan-comment/sync';
import { runJob } from '../steps/run-job';
import { pendingPlanCommentStore } from '../state/pending-plan-comment';
import { critic } from '../steps/critic';
import { route } from '../steps/route';
import { work } from '../steps/work';
import { promptTemplate } from '../templates';
import { withoutMarkerLines } from '../text/markdown';
import { redact } from '../text/redact';
import { appendHistory } from './history';
import type { LiveView } from './live-view';

/**
 * A local run: crew's own steps (route, work, advance, critic), played in this
 * process the way the shipped workflow plays them on GitHub. A "workflow run" is a
 * comment or a dispatch; its work jobs run in parallel, each in a git worktree of
 * the person's repository; dispatches start further workflow runs at once. When
 * nothing is left running, the run is finished, or it waits for the person, who
 * answers at the prompt.
 */

export interface Prompter {
  /** One reply from the person, or undefined when there is nobody to answer (end of input). */
  ask(question: string, multiline: boolean): Promise<string | undefined>;
}

export interface EngineOptions {
  project: string;
  run: number;
  base: { branch: string; sha: string };
  config: Config;
  model: Model;
  /** The run's moves to `fallback_provider` so far (the model adds to it); each job's plan comment reports its own. */
  failovers?: readonly ModelFailover[];
  view: LiveView;
  prompter: Prompter;
  verbose: boolean;
  /** Where job worktrees go (outside the project). */
  worktrees: string;
  user: string;
  /** The run files, the terminal's forge and the job worktrees, built by the entry point (src/cli/compose.ts). */
  adapters: LocalAdapters;
}

export type Ending = { kind: 'ended'; view: RunView } | { kind: 'waiting'; view: RunView } | { kind: 'stalled'; view?: RunView };

const STEPS = { route, work, advance, critic } as const;

export class LocalEngine {
  readonly state: RunFolders;
  readonly forge: TerminalForge;
  private readonly active = new Set<string>();
  /** The `work` legs each workflow run started, and those of dispatched runs still going (by run/task). */
  private readonly legs = new Map<string, Set<string>>();
  private readonly runningLegs = new Map<string, string>();
  private readonly inflight = new Set<Promise<void>>();
  private seq = 0;
  private readonly shown = new Set<number>();
  /** Ctrl-C: workers stop at their next safe point and push their work so far, as a cancelled job does on GitHub. */
  private readonly cancel = new AbortController();
  interrupted = false;
  private logBroken = false;

  constructor(private readonly o: EngineOptions) {
    this.state = o.adapters.state;
    this.forge = o.adapters.forge(this.runDir, o.base.branch, {
      dispatch: (inputs) => this.start({ kind: 'dispatch', inputs }),
      workflowRunActive: (id) => this.active.has(id),
      workLegsStarted: (id) => [...(this.legs.get(id) ?? [])],
      workLegsRunning: () => [...new Set([...this.runningLegs.values()])],
      onComment: (c) => {
        // The plan comment is the live view; the report and the retrospective are summed up at the end and kept as files.
        if (
          c.edited ||
          c.author !== 'crew' ||
          [planMarker(o.run, LOCAL_RUN), reportMarker(o.run, LOCAL_RUN), retroMarker(o.run, LOCAL_RUN)].some((m) => c.body.includes(m))
        )
          return;
        this.shown.add(c.id);
        this.o.view.message(`\n${indent(withoutMarkerLines(c.body))}\n`);
      },
    });
    this.state.onChange((run, snap) => {
      if (run !== o.run) return;
      const view = readView(snap, run, LOCAL_RUN);
      if (view) this.o.view.update(view);
      void appendHistory(this.runDir, snap, run).catch((e) => this.o.view.message(`⚠ could not write history.jsonl: ${(e as Error).message}`));
    });
  }

  get runDir(): string {
    return this.state.runDir(this.o.run);
  }

  async loadView(): Promise<RunView | undefined> {
    return readView(await this.state.load(localStatePrefix(this.o.run)), this.o.run, LOCAL_RUN);
  }

  async snapshot(): Promise<StateSnapshot> {
    return this.state.load(localStatePrefix(this.o.run));
  }

  /** A comment by the person: the request (`/crew run`) or a reply to crew's question, as on GitHub. */
  async comment(body: string, request: { title: string; body: string }): Promise<void> {
    const c = await this.forge.addPersonComment(this.o.run, this.o.user, body);
    const event: CommentEvent = {
      kind: 'comment',
      defaultBranch: this.o.base.branch,
      action: 'created',
      issue: { number: this.o.run, title: request.title, body: request.body, isPull: false, labels: [] },
      comment: { id: c.id, body, createdAt: c.createdAt, author: { login: this.o.user, type: 'User' } },
    };
    this.start(event);
  }

  /** Starts a workflow run for an event; it runs alongside any others, as on GitHub. */
  private start(event: CrewEvent): void {
    // Once interrupted nothing new starts; what was dispatched is claimed and re-queued on resume.
    if (this.interrupted) return;
    const id = `local-${process.pid}-${++this.seq}`;
    this.active.add(id);
    const p: Promise<void> = this.workflowRun(id, event)
      .catch((e) => this.o.view.message(`⚠ ${redact((e as Error).message)}`))
      .finally(() => {
        this.active.delete(id);
        this.inflight.delete(p);
      });
    this.inflight.add(p);
  }

  /** Resolves once no workflow run is left (dispatches started meanwhile included). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  /** A workflow run: the shipped workflow's jobs (domain/workflow-jobs.ts), each in this process. */
  private async workflowRun(id: string, event: CrewEvent): Promise<void> {
    await playWorkflowRun(workflowEvent(event), {
      job: async (name, inputs) => {
        if (name === 'merge' || name === 'cleanup') throw new Error(`local mode has no ${name} job: it never merges, and a local run's branches stay`);
        const r = await this.job(name, event, id, inputs);
        return { result: r.ok ? 'success' : this.interrupted ? 'cancelled' : 'failure', outputs: r.outputs };
      },
      stopped: () => this.interrupted,
    });
  }

  private async job(step: keyof typeof STEPS, event: CrewEvent, runId: string, extra: JobInputs): Promise<{ ok: boolean; outputs: Record<string, string> }> {
    const label = extra.task ?? step;
    const outputs: Record<string, string> = {};
    const leg = step === 'work' && extra.task ? `${runId}/${extra.task}` : undefined;
    if (leg) {
      this.legs.set(runId, (this.legs.get(runId) ?? new Set()).add(extra.task!));
      if (event.kind === 'dispatch') this.runningLegs.set(leg, extra.task!);
    }
    const log = this.log(label);
    const { repo, remote, dispose } = await this.o.adapters.checkout(join(this.o.worktrees, `${runId}-${label}`), this.o.base.sha);
    // The model is shared by every job of the run: this job reports only the failovers made while it ran.
    const failoversBefore = this.o.failovers?.length ?? 0;
    // This job's plan comment id rides in the run's next write, as on GitHub (state/pending-plan-comment.ts).
    const pending = pendingPlanCommentStore(this.state);
    const ctx = withPlanCommentSync({
      settings: { step, anthropicApiKey: '', githubToken: '', githubTokenIsWorkflows: false, ...extra },
      event,
      forge: this.forge,
      repo,
      remote,
      state: pending.store,
      planCommentIds: pending.ids,
      branches: localBranches,
      surface: terminalSurface(this.o.run),
      clock: systemClock,
      log,
      runId,
      config: async () => this.o.config,
      template: (name) => promptTemplate(name, this.o.config, (path) => this.readBase(path)),
      readDefaultBranchFile: (path) => this.readBase(path),
      model: () => this.modelFor(),
      modelFailovers: () => this.o.failovers?.slice(failoversBefore) ?? [],
      output: (k, v) => {
        outputs[k] = v;
      },
      summary: async () => undefined,
      trajectories: localTrajectories({
        runDir: this.runDir,
        run: this.o.run,
        level: this.o.config.transcripts.keep,
        job: { step, label, id: `${runId}-${label}` },
        warn: (m) => log.warn(m),
      }),
      cancellation: this.cancel.signal,
      unsandboxedOptIn: LOCAL_OPT_IN,
    });
    try {
      // The job's lifecycle (steps/run-job.ts), as on GitHub: the step, its failure reported, the plan comment settled.
      await runJob(ctx, STEPS[step]);
      return { ok: true, outputs };
    } catch (e) {
      log.warn(`the ${step} step failed: ${(e as Error).message}`);
      return { ok: false, outputs };
    } finally {
      if (leg) this.runningLegs.delete(leg);
      await dispose();
    }
  }

  /** A file as committed at the run's base: configuration, templates and knowledge never come from crew's own branches. */
  private readBase(path: string): Promise<string | undefined> {
    return this.o.adapters.fileAt(this.o.base.sha, path);
  }

  /** The model, and with --verbose what each agent says and which tools it calls, as it happens. */
  private modelFor(): Model {
    if (!this.o.verbose) return this.o.model;
    return {
      complete: async (req) => {
        const reply = await this.o.model.complete(req);
        const who = identify(req.system, req.messages[0]?.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n') ?? '', 0);
        const label = who.role === 'worker' && who.task ? who.task : who.role;
        for (const b of reply.content) {
          if (b.type === 'text' && b.text.trim()) this.o.view.message(`  📝 [${label}] ${oneLine(b.text, 80)}`);
          if (b.type === 'tool_use') this.o.view.message(`  → [${label}] ${b.name} ${oneLine(redact(JSON.stringify(b.input)), 100)}`);
        }
        return reply;
      },
    };
  }

  private log(label: string): Log {
    const file = join(this.runDir, 'crew.log');
    const write = (level: string, m: string) =>
      void appendFile(file, `${new Date().toISOString()} ${level} [${label}] ${redact(m)}\n`).catch((e: Error) => {
        // Said once: the run goes on, but its log is incomplete.
        if (this.logBroken) return;
        this.logBroken = true;
        this.o.view.message(`⚠ cannot write ${file} (${e.message}); the run goes on without a complete log`);
      });
    return {
      info: (m) => write('info', m),
      warn: (m) => {
        write('warn', m);
        this.o.view.message(`⚠ [${label}] ${redact(m)}`);
      },
      checkpoint: (name) => write('checkpoint', name),
    };
  }

  /** Runs until nothing is left running, asking the person whenever crew waits for them. */
  async drive(request: { title: string; body: string }): Promise<Ending> {
    for (;;) {
      await this.idle();
      if (this.interrupted) return { kind: 'stalled', view: await this.loadView() };
      const view = await this.loadView();
      if (!view) return { kind: 'stalled' };
      if (isTerminal(view.run.phase)) return { kind: 'ended', view };
      if (view.run.phase !== 'ESCALATING' && view.run.phase !== 'AWAITING_APPROVAL') return { kind: 'stalled', view };
      const reply = await this.askPerson(view);
      if (reply === undefined) return { kind: 'waiting', view };
      await this.comment(reply, request);
    }
  }

  /** crew's question (shown again if it was asked in an earlier session), then the person's reply as a command. */
  private async askPerson(view: RunView): Promise<string | undefined> {
    const waiting = view.run.waiting;
    if (waiting && waiting.commentId && !this.shown.has(waiting.commentId)) {
      const c = await this.forge.getComment(waiting.commentId).catch(() => undefined);
      if (c) this.o.view.message(`\n${indent(withoutMarkerLines(c.body))}\n`);
      this.shown.add(waiting.commentId);
    }
    this.o.view.pause();
    try {
      if (waiting?.kind === 'answer') {
        const text = await this.o.prompter.ask('Your answer (finish with an empty line):', true);
        return text?.trim() ? `/crew answer ${text.trim()}` : undefined;
      }
      const choices = promptChoices(view.run);
      const words = choices.map((c) => c.split(' ')[0]!);
      for (;;) {
        const line = await this.o.prompter.ask(`Reply with ${choices.map((c) => `\`${c}\``).join(', ')}:`, false);
        if (line === undefined) return undefined;
        const [word = ''] = line.trim().split(/\s+/);
        if (words.includes(word.toLowerCase())) return `/crew ${line.trim().replace(/^\S+/, word.toLowerCase())}`;
        this.o.view.message(`'${line.trim()}' is not one of ${words.join(', ')}.`);
      }
    } finally {
      this.o.view.resume();
    }
  }

  /**
   * Ctrl-C: running workers save their work so far (at most a few seconds), then the run is
   * marked interrupted (unless it is planning, which resumes by planning again).
   */
  async interrupt(): Promise<void> {
    this.interrupted = true;
    this.cancel.abort();
    await Promise.race([this.idle(), new Promise((r) => setTimeout(r, 5000))]);
    await this.state.update(localStatePrefix(this.o.run), `run ${this.o.run}: interrupted at the terminal`, (tx) => {
      const view = readView(tx, this.o.run, LOCAL_RUN);
      if (!view || !['EXECUTING', 'INTEGRATING', 'REVIEWING'].includes(view.run.phase)) return;
      writeRun(tx, { ...view.run, phase: 'INTERRUPTED', finalizer: null }, isoSeconds(new Date()));
    });
  }
}

/** The event as the workflow's conditions read it: the person's comments come from a user; crew's dispatches name their tasks. */
function workflowEvent(event: CrewEvent): WorkflowEvent {
  if (event.kind === 'comment') return { kind: 'comment', body: event.comment.body, userType: event.comment.author.type, labels: event.issue.labels };
  if (event.kind === 'dispatch') {
    const i = event.inputs;
    return { kind: 'dispatch', inputs: { issue: i.issue ?? '', run: i.run ?? '', tasks: i.tasks ?? '[]', nonce: i.nonce ?? '' } };
  }
  throw new Error(`local mode plays comments and dispatches only, not ${event.kind} events`);
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? `  ${l}` : l))
    .join('\n');
}

export async function readRequest(runDir: string): Promise<{ title: string; body: string } | undefined> {
  const file = join(runDir, 'request.json');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as { title: string; body: string };
  } catch (e) {
    throw new Error(`${file} is not valid JSON (${(e as Error).message}); restore it, or start a new run with crew run "task"`);
  }
}
