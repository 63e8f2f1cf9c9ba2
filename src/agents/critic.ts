import { z } from 'zod';
import type { Criterion } from '../domain/criteria';
import type { Evaluation, AdversarialFinding, ModelEvaluation } from '../domain/judgment';
import { citationProblem, citationsIn } from '../domain/citations';
import type { Plan } from '../domain/plan';
import type { Usage } from '../domain/run-state';
import type { AgentTrajectory, Log, Model } from '../ports';
import { runCommandTool, type CommandToolOptions } from './command-tools';
import { PathJail } from './path-jail';
import { answerTool, NotAccepted } from './submission';
import { runToolLoop, type AgentTool } from './tool-loop';
import { readOnlyTools } from './read-only-tools';

const JudgmentSchema = z.object({
  evaluations: z
    .array(
      z.object({
        criterion: z.string().describe('The criterion id, e.g. c2.'),
        met: z.boolean(),
        evidence: z.array(z.string()).describe('What shows it: file:line excerpts, command output. A PASS without evidence counts as FAIL.'),
        confidence: z.number().min(0).max(1),
        tasks: z.array(z.string()).default([]).describe('When not met: the task ids whose work falls short.'),
      }),
    )
    .default([]),
  overall_reason: z.string().trim().min(1),
  suggested_next_action: z.string().default(''),
  renames: z
    .array(
      z.object({
        criterion: z.string().describe('The command criterion whose run lost the test, e.g. c1.'),
        lost: z.string().describe('The lost test exactly as crew listed it.'),
        replacement: z.string().describe('The new passing test that replaces it, exactly as crew listed it among the new tests.'),
      }),
    )
    .default([])
    .describe(
      'Lost tests that were renamed, not lost: each with the new test that replaces it. Leave a lost test out unless the diff shows the same test under the new name.',
    ),
});

/** A command criterion's tests that passed on the base and do not pass on the head, and the new passing tests that could replace them. */
export interface LostTestsInput {
  criterion: string;
  command: string;
  lost: string[];
  newPassing: string[];
}

/** A lost test the critic called a rename, naming the test that replaces it (checked against crew's lists). */
export interface Rename {
  criterion: string;
  lost: string;
  replacement: string;
}

export interface CriticInput {
  repoDir: string;
  modelId: string;
  system: string;
  plan: Plan;
  /** Semantic criteria for the model to judge. */
  judge: Criterion[];
  /** Command criteria already run, for context and for naming the tasks behind a failure. */
  commandResults: Evaluation[];
  adversarial: AdversarialFinding[];
  taskSummaries: Array<{ id: string; title: string; summary: string; files: string[] }>;
  diffStat: string;
  /** The repository's own guidance (`prompts.judgment`). */
  guidance: string;
  commands: CommandToolOptions;
  maxTurns: number;
  /** Which judgment this is (1-based) and the limit, so a later round knows what came before. */
  iteration: number;
  limit: number;
  /** The previous round's reasons, when this is not the first. */
  previous?: string;
  /** A file as the judged commit has it (not the checkout, which commands may have changed); undefined when absent. */
  readTree?: (path: string) => Promise<string | undefined>;
  /** A file as the run's base has it: a file the change deleted may be named without being evidence of anything. */
  readBase?: (path: string) => Promise<string | undefined>;
  /** Tests lost between the base and this branch, per command criterion (#32): each fails the judgment unless shown to be a rename. */
  lostTests?: LostTestsInput[];
}

export interface CriticOutput {
  evaluations: ModelEvaluation[];
  overallReason: string;
  suggestedNextAction: string;
  usage: Usage;
  turns: number;
  submitted: boolean;
  /** Lost tests the critic showed to be renamed (each checked: a listed lost test, a listed new test, each used once). */
  renames?: Rename[];
}

function firstMessage(i: CriticInput): string {
  const lines = [
    `Judgment ${i.iteration} of at most ${i.limit} for this run.`,
    ...(i.previous ? ['', '## Why the previous judgment failed (the tasks were sent back with these reasons)', i.previous] : []),
    '',
    '## What was asked',
    i.plan.summary,
    '',
    '## Criteria for you to judge',
    ...(i.judge.length
      ? i.judge.map((c) => `- ${c.id}: ${c.text}`)
      : ['(none: every criterion is a command crew ran; only name the tasks behind any that failed)']),
    '',
    '## Command criteria crew ran on this branch',
    ...(i.commandResults.length
      ? i.commandResults.map(
          (e) =>
            `- ${e.criterion}: ${e.text} → ${e.met === true ? 'met' : e.met === false ? 'NOT met' : `error (${e.error})`}\n  ${e.evidence.join('\n  ').slice(0, 1500)}`,
        )
      : ['(none)']),
    '',
    '## What crew found in the diff and the test runs',
    ...(i.adversarial.length ? i.adversarial.map((f) => `- ${f.rule}: ${f.evidence}`) : ['(nothing)']),
    ...lostSection(i.lostTests ?? []),
    '',
    '## The tasks and what their workers reported (their word, not evidence)',
    ...i.taskSummaries.map((t) => `- ${t.id} ${t.title}: ${t.summary.split('\n')[0]} (files: ${t.files.join(', ') || 'none'})`),
    '',
    '## Files changed against the base',
    i.diffStat || '(no changes)',
  ];
  if (i.guidance.trim()) lines.push('', "## This repository's guidance for judging", i.guidance.trim());
  lines.push(
    '',
    'Judge every criterion listed for you on the code as it is in this checkout. Read the files and run checks yourself; a worker saying it did something is not evidence. Then call submit_judgment once, with one evaluation per criterion, and for any criterion not met (yours or a command that failed) the task ids whose work falls short.',
    'Cite code as `path:line` or `path:first-last`, with the code you mean quoted in backticks right after it (for example: src/a.ts:12 `return a + b;`). crew checks every citation against the committed tree: a file, line or quote that is not there makes the criterion not met.',
  );
  return lines.join('\n');
}

/** The lost tests, and the new tests a rename may name: a lost test stays a failure unless the model names its replacement. */
function lostSection(lost: LostTestsInput[]): string[] {
  const withLost = lost.filter((l) => l.lost.length);
  if (!withLost.length) return [];
  return [
    '',
    '## Tests that passed on the base and do not pass on this branch',
    'crew ran each command on the base and on this branch and compared the tests by name. Each lost test below fails the judgment. If the diff shows one was only renamed (the same test under a new name), list it in `renames` with the new test that replaces it, both exactly as written here; otherwise leave it.',
    ...withLost.flatMap((l) => [
      `- ${l.criterion} (\`${l.command}\`), lost:`,
      ...l.lost.map((t) => `  - ${t}`),
      `  new tests that pass here and did not exist on the base: ${l.newPassing.length ? '' : '(none)'}`,
      ...l.newPassing.map((t) => `  - ${t}`),
    ]),
  ];
}

/** The renames a judgment names, held to crew's lists: the problems, for the model to correct. */
function renameProblems(renames: Rename[], lost: LostTestsInput[]): string[] {
  const problems: string[] = [];
  const usedLost = new Set<string>();
  const usedNew = new Set<string>();
  for (const [n, r] of renames.entries()) {
    const l = lost.find((x) => x.criterion === r.criterion);
    const at = `renames.${n}`;
    if (!l) problems.push(`${at}: ${r.criterion} lost no tests`);
    else if (!l.lost.includes(r.lost.trim())) problems.push(`${at}.lost: "${r.lost}" is not among the tests ${r.criterion} lost`);
    else if (!l.newPassing.includes(r.replacement.trim()))
      problems.push(`${at}.replacement: "${r.replacement}" is not among the new passing tests of ${r.criterion}`);
    else if (usedLost.has(`${r.criterion}\0${r.lost.trim()}`) || usedNew.has(`${r.criterion}\0${r.replacement.trim()}`))
      problems.push(`${at}: each lost test and each new test can be named in one rename only`);
    usedLost.add(`${r.criterion}\0${r.lost.trim()}`);
    usedNew.add(`${r.criterion}\0${r.replacement.trim()}`);
  }
  return problems;
}

/** Every citation in a met criterion's evidence, checked against the judged commit. */
async function checkEvidence(
  evidence: string[],
  readTree: (path: string) => Promise<string | undefined>,
  readBase?: (path: string) => Promise<string | undefined>,
): Promise<{ verified: string[]; problems: string[] }> {
  const verified: string[] = [];
  const problems: string[] = [];
  // A path git cannot read (outside the repository, say) is a file the tree does not hold.
  const read = (f: (path: string) => Promise<string | undefined>, path: string) => f(path).catch(() => undefined);
  for (const c of evidence.flatMap((e) => citationsIn(e))) {
    const text = await read(readTree, c.path);
    // Naming a file the change deleted (no line cited) is a statement about the change, not a citation of code.
    if (text === undefined && c.from === undefined && readBase && (await read(readBase, c.path)) !== undefined) continue;
    const problem = citationProblem(c, text);
    if (problem) problems.push(problem);
    else verified.push(c.quote ? `${c.raw} ${c.quote}` : c.raw.replace(/`/g, ''));
  }
  return { verified: [...new Set(verified)], problems: [...new Set(problems)] };
}

/** The critic: judges the semantic criteria on the integrated branch with read-only tools. */
export async function runCritic(model: Model, input: CriticInput, log: Log, trajectory?: AgentTrajectory): Promise<CriticOutput> {
  const jail = new PathJail(input.repoDir, []);
  const ids = new Set(input.judge.map((c) => c.id));
  const failedCommands = new Set(input.commandResults.filter((e) => e.met !== true).map((e) => e.criterion));
  let out: Omit<CriticOutput, 'usage' | 'turns' | 'submitted'> | undefined;
  let askedAgain = false;
  const tools: AgentTool[] = [
    ...readOnlyTools(jail, input.commands.maxOutputBytes),
    runCommandTool(jail, input.commands),
    answerTool(
      {
        name: 'submit_judgment',
        description:
          "Submit your judgment of every criterion listed for you, once, at the end. crew checks each citation in a met criterion's evidence against the judged commit (the file exists, the line is within it, a quoted text in backticks is on the cited lines); citations that do not hold come back once, with the reasons, to be corrected.",
        schema: JudgmentSchema,
      },
      async (judged) => {
        const unknown = judged.evaluations.filter((e) => !ids.has(e.criterion) && !failedCommands.has(e.criterion)).map((e) => e.criterion);
        const missing = [...ids].filter((id) => !judged.evaluations.some((e) => e.criterion === id));
        const problems = [
          ...(unknown.length ? [`evaluations: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not among the criteria listed for you`] : []),
          ...(missing.length ? [`evaluations: judge ${missing.join(', ')} too`] : []),
          ...renameProblems(judged.renames, input.lostTests ?? []),
        ];
        if (problems.length) throw new NotAccepted(problems, 'submit_judgment');
        const checked = new Map<string, { verified: string[]; problems: string[] }>();
        if (input.readTree)
          for (const e of judged.evaluations) if (e.met) checked.set(e.criterion, await checkEvidence(e.evidence, input.readTree, input.readBase));
        const wrong = [...checked].filter(([, c]) => c.problems.length);
        // Asked once more with the reasons; the second answer stands (its bad citations make it not met).
        if (wrong.length && !askedAgain) {
          askedAgain = true;
          throw new Error(
            `Not accepted: your evidence cites code the judged commit does not hold:\n${wrong.map(([id, c]) => c.problems.map((p) => `- ${id}: ${p}`).join('\n')).join('\n')}\nRead the files again and call submit_judgment again. Cite what is there, or judge the criterion not met.`,
          );
        }
        out = {
          evaluations: judged.evaluations.map((e) => ({
            criterion: e.criterion,
            met: e.met,
            evidence: e.evidence,
            confidence: e.confidence,
            tasks: e.tasks,
            ...(checked.has(e.criterion) ? { citations: checked.get(e.criterion)! } : {}),
          })),
          overallReason: judged.overall_reason,
          suggestedNextAction: judged.suggested_next_action,
          renames: judged.renames.map((r) => ({ criterion: r.criterion, lost: r.lost.trim(), replacement: r.replacement.trim() })),
        };
        return 'Judgment recorded.';
      },
    ),
  ];
  const refusal = 'The critic does not change files: it judges the work, it never does it (4QV+: no self-completion).';
  const outcome = await runToolLoop({
    model,
    modelId: input.modelId,
    system: input.system,
    log,
    ...(trajectory ? { trajectory } : {}),
    tools,
    refused: { write_file: refusal, edit_file: refusal },
    firstMessage: firstMessage(input),
    maxTurns: input.maxTurns,
    nudge: 'When you have judged every criterion, call submit_judgment.',
  });
  return {
    ...(out ?? {
      evaluations: [],
      overallReason: `the critic did not submit a judgment (${outcome.stop} after ${outcome.turns} turns)`,
      suggestedNextAction: '',
    }),
    usage: outcome.usage,
    turns: outcome.turns,
    submitted: out !== undefined,
  };
}
