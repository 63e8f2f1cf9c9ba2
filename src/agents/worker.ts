import { notLoadedNote } from '../domain/images';
import { z } from 'zod';
import { describeCriterion } from '../domain/criteria';
import type { Plan, PlanTask } from '../domain/plan';
import { MIN_REPORT_LINES, REPORT_REASKS, reportProblems, type Feedback, type Reported } from '../domain/result';
import type { Usage } from '../domain/run-state';
import type { AgentTrajectory, Log, Model } from '../ports';
import { teammateBlock } from '../state/inbox';
import { runCommandTool, type CommandToolOptions } from './command-tools';
import { PathJail } from './path-jail';
import { teamTools, type Team } from './team-tools';
import { runToolLoop, type AgentTool, type Compaction, type LoopLimits, type LoopStop } from './tool-loop';
import { fileTools } from './read-only-tools';
import { repositoryMap } from '../domain/repo-map';
import type { AgentImage } from './decomposer';

export interface WorkerRun {
  reported: Reported | undefined;
  stop: LoopStop;
  turns: number;
  usage: Usage;
  /** Counted from the tool stream, never taken from the model's word. */
  toolCalls: Record<string, number>;
  promptTokens: number[];
  compactions: number;
  /** With stop 'error': what went wrong outside the tools; with 'loop', the repeated call. */
  error?: string;
  /** The limit reached before the worker reported in its last turn. */
  limit?: 'max_turns' | 'budget';
}

export interface WorkerInput {
  task: PlanTask;
  plan: Plan;
  attempt: number;
  /** One of the task's parallel attempts (#50): its number and how many there are. */
  parallel?: { n: number; of: number };
  repoDir: string;
  protectedPaths: string[];
  maxTurns: number;
  /** `max_output_tokens.worker`: room for one reply, thinking and tool input included. */
  maxOutputTokens?: number;
  modelId: string;
  /** The persona's system prompt (worker_<persona>, or the repository's override). */
  system: string;
  /** The repository's tracked files: ranked by their paths into the map when `repoMap` is not given. */
  repoFiles: string[];
  /** The repository map ranked for this task with the definitions it read (steps/repo-map.ts, #48), for the cached system prompt. */
  repoMap?: string;
  commands: CommandToolOptions;
  team: Team;
  limits: LoopLimits;
  compaction?: Compaction;
  /** Earlier attempts and why they failed, and the knowledge base: read before starting. */
  memory: {
    attempts: string[];
    lastFailure: string | null;
    knowledge: string[];
    advice: string[];
    /** The attempt goes on from a job that ran out of time. */ continuing?: boolean;
    /** What earlier attempts left on the branch (a diff stat or a file list), for a retry. */
    branchHolds?: string;
  };
  /** Aborts when the job is being cancelled; the worker stops at its next safe point. */
  signal?: AbortSignal;
  /** The request's images this task lists (#36), shown with the first message. */
  images?: AgentImage[];
  /** The images this task lists that could not be loaded again (#36): named in the prompt, so the worker knows it has not seen them. */
  imagesNotLoaded?: string[];
  /** The repository's MCP servers' tools (#36): ordinary tools of the loop, so every call is recorded like crew's own. */
  extraTools?: AgentTool[];
}

const FeedbackSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('implementation'), result: z.string(), changes: z.array(z.string()).default([]) }),
  z.object({
    type: z.literal('exploration'),
    findings: z.array(z.string()),
    recommendations: z.array(z.string()).default([]),
    confidence: z.number().min(0).max(1),
  }),
  z.object({
    type: z.literal('difficulty'),
    issue: z.string(),
    attempts: z.array(z.string()).default([]),
    impediment: z.object({ category: z.enum(['technical', 'ambiguity', 'scope', 'dependency']), requestedAction: z.string() }),
    conflicting: z.array(z.string()).optional(),
  }),
]);

const REPORT_SCHEMA = {
  type: 'object',
  properties: {
    status: {
      type: 'string',
      enum: ['success', 'partial', 'failure'],
      description: 'success: the task is done; partial: part of it; failure: could not do it',
    },
    quality: { type: 'string', enum: ['GREEN', 'YELLOW', 'RED'], description: 'Your own judgement of the result' },
    completeness: { type: 'integer', minimum: 0, maximum: 100, description: 'How much of the task is done, in percent' },
    summary: { type: 'string', description: 'What you did and why, in a few sentences.' },
    details: {
      type: 'string',
      description: 'Markdown report of at least 20 lines: what changed and where, how you checked it, risks, anything the reviewer should know.',
    },
    feedback: {
      description:
        'One of: implementation {result, changes[]}; exploration {findings[], recommendations[], confidence 0-1}; difficulty {issue, attempts[], impediment {category: technical|ambiguity|scope|dependency, requestedAction}, conflicting?: [requirement, requirement]}',
      type: 'object',
      properties: { type: { type: 'string', enum: ['implementation', 'exploration', 'difficulty'] } },
      required: ['type'],
    },
  },
  required: ['status', 'summary'],
};

/** Reads what the model reported, keeping what is valid; the metadata rules judge what is missing. */
export function parseReport(raw: unknown): Reported {
  const r = (raw ?? {}) as Record<string, unknown>;
  const out: Reported = {};
  if (r.status === 'success' || r.status === 'partial' || r.status === 'failure') out.status = r.status;
  if (r.quality === 'GREEN' || r.quality === 'YELLOW' || r.quality === 'RED') out.quality = r.quality;
  if (typeof r.completeness === 'number' && Number.isFinite(r.completeness)) out.completeness = r.completeness;
  if (typeof r.summary === 'string') out.summary = r.summary;
  if (typeof r.details === 'string') out.details = r.details;
  const f = FeedbackSchema.safeParse(r.feedback);
  if (f.success) out.feedback = f.data as Feedback;
  return out;
}

function firstMessage(input: WorkerInput): string {
  const t = input.task;
  const others = input.plan.tasks.filter((x) => x.id !== t.id).map((x) => `- ${x.id}: ${x.title}`);
  const sections = [
    `Task: ${t.id}`,
    `Attempt: ${input.attempt}`,
    ...(input.parallel
      ? [
          `Parallel attempt: ${input.parallel.n} of ${input.parallel.of} (other workers do this same task on branches of their own; crew keeps the one the tests favour)`,
        ]
      : []),
    '',
    `# ${t.title}`,
    '',
    t.description,
    t.files.length ? `\nFiles this task expects to touch: ${t.files.join(', ')}` : '',
    input.images?.length ? `\nThe request's images this task needs, shown above in this order:\n${input.images.map((i) => `- ${i.line}`).join('\n')}` : '',
    ...notLoadedNote(input.imagesNotLoaded),
    '',
    'This task is done when:',
    ...t.criteria.map((c) => `- ${c}`),
    '',
    '## The whole request, for context',
    input.plan.summary,
    '',
    'Done criteria for the whole request:',
    ...input.plan.criteria.map((c) => `- ${describeCriterion(c)}`),
  ];
  if (others.length) sections.push('', 'Other workers handle these tasks; do not do them:', ...others);
  if (input.memory.knowledge.length)
    sections.push('', "## What this repository's maintainers want agents to know", ...input.memory.knowledge.map((k) => `- ${k}`));
  if (input.memory.advice.length)
    sections.push('', "## Notes for this attempt (from crew's advisor or a maintainer)", ...input.memory.advice.map((a) => `- ${a}`));
  if (input.memory.continuing) {
    sections.push(
      '',
      '## Continuing this attempt',
      'The job this attempt started in reached its time limit, so crew committed your work so far on this branch and started a new job. Read the files you were changing, then carry on from where the work stopped.',
    );
  }
  if (input.memory.branchHolds) {
    sections.push(
      '',
      '## What the branch already holds',
      'Earlier attempts committed this work on your branch; it is in the files now. Build on it: check it, fix what is wrong, finish what is missing, and do not redo what is done.',
      input.memory.branchHolds,
    );
  }
  if (input.memory.attempts.length) {
    sections.push('', '## Earlier attempts at this task', ...input.memory.attempts);
    if (input.memory.lastFailure) sections.push('', `The last attempt did not succeed because: ${input.memory.lastFailure}. Do not repeat what failed.`);
  }
  return sections.filter((l, i, a) => !(l === '' && a[i - 1] === '')).join('\n');
}

/** The worker's map's size: it sits in the cached system prompt, so every turn reads it at the cached price. */
export const WORKER_MAP_CHARS = 16_000;

/**
 * The repository map without the files' contents (an eval or a bench run that passes only the file
 * list): ranked for the task by paths alone, source before docs and assets, every top-level folder counted.
 */
export function repositoryMapOf(files: string[], task: PlanTask): string {
  return repositoryMap({ files, contents: new Map(), focus: taskFocus(task), budgetChars: WORKER_MAP_CHARS });
}

/** The words a worker's map is ranked for: the task's title, description and files. */
export function taskFocus(task: PlanTask): string {
  return `${task.title}\n${task.description}\n${task.files.join(' ')}`;
}

/** Runs one attempt of a task's agent in the checkout. */
export async function runWorker(model: Model, input: WorkerInput, log: Log, trajectory?: AgentTrajectory): Promise<WorkerRun> {
  const jail = new PathJail(input.repoDir, input.protectedPaths);
  const delivered = new Set<string>();
  let reported: Reported | undefined;
  let reportReasks = 0;
  /** Commands the worker ran in this attempt: a report that says a check passed needs at least one. */
  let commandsRun = 0;
  /** The last report sent back to be fixed: it stands, as crew's rules judge it, if the worker has no turn left to fix it. */
  let sentBack: Reported | undefined;
  const readOnly = input.task.persona === 'reviewer';
  const refused: Record<string, string> = readOnly
    ? {
        write_file: 'write_file is not available to a reviewer: reviewers read and run checks, they do not change files.',
        edit_file: 'edit_file is not available to a reviewer: reviewers read and run checks, they do not change files.',
      }
    : {};
  const tools: AgentTool[] = [
    // A reviewer's are the read-only roles' (readOnlyTools).
    ...fileTools(jail, input.commands.maxOutputBytes, !readOnly),
    counted(runCommandTool(jail, input.commands), () => commandsRun++),
    ...teamTools(input.task.id, input.team, delivered),
    // A server's tool cannot stand in for one of crew's: names are mcp__<server>__<tool>, which crew's never are.
    ...(input.extraTools ?? []),
    {
      final: true,
      spec: {
        name: 'report_result',
        description: `Report the outcome of your task and end your attempt: call it once, when the work is done or you cannot go further. crew checks the report first (details of at least ${MIN_REPORT_LINES} lines; a claim that a check passed needs a command you ran); one it cannot accept comes back as an error saying what to fix, with your work kept. Then crew commits and pushes your changes.`,
        input_schema: REPORT_SCHEMA,
      },
      run(raw) {
        const candidate = parseReport(raw);
        // A report that breaks only the report rules is fixed here, in one more turn, not by a new attempt.
        const problems = reportProblems(candidate, commandsRun);
        if (problems.length && reportReasks < REPORT_REASKS) {
          reportReasks++;
          sentBack = candidate;
          log.info(`report_result sent back (${reportReasks} of ${REPORT_REASKS}): ${problems.join('; ')}`);
          throw new Error(
            `Not accepted yet, only the report: your work is kept as it is.\n${problems.map((p) => `- ${p}`).join('\n')}\nCall report_result again with the whole report fixed; do not redo the work.`,
          );
        }
        reported = candidate;
        return 'Reported. crew will check the report, commit and push your changes.';
      },
    },
  ];
  const outcome = await runToolLoop({
    model,
    modelId: input.modelId,
    system: `${input.system.trimEnd()}\n\n${input.repoMap ?? repositoryMapOf(input.repoFiles, input.task)}`,
    log,
    recover: true,
    ...(trajectory ? { trajectory } : {}),
    tools,
    refused,
    firstMessage: firstMessage(input),
    ...(input.images?.length ? { images: input.images.map((i) => i.block) } : {}),
    maxTurns: input.maxTurns,
    ...(input.maxOutputTokens ? { maxTokens: input.maxOutputTokens } : {}),
    limits: input.limits,
    compaction: input.compaction,
    nudge: 'If you are finished, call report_result with your status and report.',
    tellLimits: true,
    ...(input.signal ? { signal: input.signal } : {}),
    async between(turn) {
      // Where a test can cancel the job mid-task: the tools of the turn before have run.
      if (turn > 1) log.checkpoint('worker-turn');
      const fresh = (await input.team.inbox()).filter((m) => !delivered.has(m.id));
      for (const m of fresh) delivered.add(m.id);
      if (fresh.some((m) => m.type === 'shutdown_request')) return { stop: 'shutdown' };
      return { notes: fresh.map(teammateBlock) };
    },
  });
  const unfixed = !reported && sentBack && (outcome.stop === 'max_turns' || outcome.stop === 'no_final');
  return {
    reported: reported ?? (unfixed ? sentBack : undefined),
    stop: unfixed ? 'final' : outcome.stop,
    turns: outcome.turns,
    usage: outcome.usage,
    toolCalls: outcome.toolCalls,
    promptTokens: outcome.promptTokens,
    compactions: outcome.compactions,
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.limit ? { limit: outcome.limit } : {}),
  };
}

/** The same tool, calling `onCall` each time it runs. */
function counted(tool: AgentTool, onCall: () => void): AgentTool {
  return {
    ...tool,
    run(raw, facts) {
      onCall();
      return tool.run(raw, facts);
    },
  };
}
