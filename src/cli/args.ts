import { parseArgs as parseOptions, type ParseArgsOptionsConfig } from 'node:util';
import { UsageError } from '../local/workspace';
import { PROVIDERS, type Provider } from '../domain/providers';
import { AGENTS, type AgentName } from '../domain/trajectory';
import { parseWays, type Way } from '../eval/play';
import type { EvalOptions } from '../eval/index';

/** The `crew` command line, parsed without side effects; mistakes are UsageErrors (exit 2). */

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | {
      kind: 'run';
      task?: string;
      criteria: string[];
      configFile?: string;
      resume?: number | 'latest';
      project: string;
      maxIterations?: number;
      verbose: boolean;
      scripted?: string;
      /** Image files the run reads as if pasted into an issue (#36). */
      images: string[];
      /** Run agents' commands without a sandbox where none can start (the person's opt-in; never the repository's). */
      allowUnsandboxed: boolean;
      /** Run the repository's \`setup:\` commands without asking. */
      allowSetup: boolean;
      /** Where the model calls go, over \`provider\` / \`fallback_provider\` in the configuration. */
      provider?: Provider;
      fallbackProvider?: Provider;
    }
  | { kind: 'list'; project: string }
  | { kind: 'status'; run?: number; project: string }
  | { kind: 'show'; run?: number; task?: string; attempt?: number; agent?: AgentName; json: boolean; project: string }
  /** Write crew's workflow and a commented .github/crew.yml into the clone at `project`, asking first unless `yes`. */
  | { kind: 'init'; project: string; yes: boolean; form: 'short' | 'full' }
  /** Check a repository's setup on GitHub (`repo`, else the clone's origin) with GITHUB_TOKEN or GH_TOKEN. */
  | { kind: 'doctor'; project: string; repo?: string; json: boolean }
  /** `crew eval`: the picked instances played each way, with a budget per instance (EvalOptions beside it). */
  | ({ kind: 'eval'; maxTokens: number; maxCostUsd: number; maxMinutes: number } & Pick<
      EvalOptions,
      'instances' | 'ids' | 'limit' | 'ways' | 'concurrency' | 'out' | 'scripted' | 'provider' | 'allowUnsandboxed' | 'maxIterations'
    >);

export const USAGE = `crew: turn a request into reviewed, committed work on a local git repository.

Usage:
  crew run "task" [--criteria "…"]...    plan, work, judge and commit on a crew/local-<run>/result branch
  crew run --config task.yaml            the task and criteria (and any .github/crew.yml key) from a file
  crew run --resume [run]                continue the latest run, or the one named
  crew list                              the runs, with status, iterations and date
  crew status [run]                      the plan view of a run (the latest by default)
  crew show [run] [task]                 what the agents did: each turn, tool call, exit code and cost
    [--attempt N] [--agent NAME] [--json]  (NAME: intake, planner, plan_reviewer, worker, critic,
                                         resolver, retrospector; --json prints the records as kept)
  crew init [--yes] [--form full]        set crew up in this clone: the workflow and .github/crew.yml, with setup
                                         and criteria proposed from what the repository holds (asks before writing)
  crew doctor [--repo OWNER/NAME] [--json]   check the repository's setup on GitHub (Actions, rulesets, the
                                         workflow, the secret, .github/crew.yml) and say how to fix each problem;
                                         reads GITHUB_TOKEN or GH_TOKEN (e.g. GITHUB_TOKEN=$(gh auth token))
  crew eval INSTANCES.jsonl              play SWE-bench-format instances, crew beside one agent, and score them
    [--ids A,B] [--limit N] [--way crew|single|both|crew-best-of-N,…] [--concurrency K] [--out DIR]
    [--max-tokens N] [--max-cost USD] [--max-minutes M]  budgets per instance and way (docs/eval.md)

Options:
  --project DIR          the repository to work on (default: the current folder)
  --max-iterations N     how many times the critic may send the work back (overrides max_iterations)
  --verbose              show the agents' tool calls and text as they happen
  --scripted FILE        play scripted model replies from FILE instead of calling the Anthropic API
  --image FILE           an image (PNG, JPEG, GIF or WebP) for the run to see, like a screenshot pasted
                         into an issue; repeat it for more (at most 10 are read)
  --allow-setup          run the repository's setup: commands (.github/crew.yml or the task file) without
                         asking; without it crew shows them and asks once for each new content
  --allow-unsandboxed    where no sandbox can start here, let agents' commands run without one (as you,
                         with network); without it run_command is refused there
  --provider P           where the model calls go: anthropic, bedrock or vertex (over provider: in
                         .github/crew.yml)
  --fallback-provider P  the provider to go on with when the first stays overloaded or rate-limited

The model: set ANTHROPIC_API_KEY, or ANTHROPIC_BASE_URL for an Anthropic-compatible gateway. With
--provider bedrock, your AWS credentials and AWS_REGION (as the AWS SDK reads them); with vertex,
your Google application-default credentials, ANTHROPIC_VERTEX_PROJECT_ID and CLOUD_ML_REGION.
Exit codes: 0 done, 1 not done (criteria unmet, failed, or waiting for you), 2 usage or configuration error, 130 interrupted.
crew doctor: 0 nothing to fix, 1 something to fix. crew init: 0 written (or nothing to write), 1 declined.`;

/** `crew run`'s options; `list` and `status` take `--project` and `--help` only. */
const RUN_OPTIONS = {
  project: { type: 'string' },
  criteria: { type: 'string', multiple: true },
  criterion: { type: 'string', multiple: true },
  config: { type: 'string' },
  'max-iterations': { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  scripted: { type: 'string' },
  image: { type: 'string', multiple: true },
  'allow-unsandboxed': { type: 'boolean' },
  'allow-setup': { type: 'boolean' },
  provider: { type: 'string' },
  'fallback-provider': { type: 'string' },
  // `--resume [run]`: parseArgs has no optional values, so the run number is the positional right after it.
  resume: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

const OTHER_OPTIONS = { project: RUN_OPTIONS.project, help: RUN_OPTIONS.help } as const satisfies ParseArgsOptionsConfig;
const INIT_OPTIONS = { ...OTHER_OPTIONS, yes: { type: 'boolean', short: 'y' }, form: { type: 'string' } } as const satisfies ParseArgsOptionsConfig;
const DOCTOR_OPTIONS = { ...OTHER_OPTIONS, repo: { type: 'string' }, json: { type: 'boolean' } } as const satisfies ParseArgsOptionsConfig;

const SHOW_OPTIONS = {
  ...OTHER_OPTIONS,
  attempt: { type: 'string' },
  agent: { type: 'string' },
  json: { type: 'boolean' },
} as const satisfies ParseArgsOptionsConfig;

const EVAL_OPTIONS = {
  ...OTHER_OPTIONS,
  ids: { type: 'string', multiple: true },
  limit: { type: 'string' },
  way: { type: 'string' },
  concurrency: { type: 'string' },
  out: { type: 'string' },
  scripted: RUN_OPTIONS.scripted,
  provider: RUN_OPTIONS.provider,
  'allow-unsandboxed': RUN_OPTIONS['allow-unsandboxed'],
  'max-iterations': RUN_OPTIONS['max-iterations'],
  'max-tokens': { type: 'string' },
  'max-cost': { type: 'string' },
  'max-minutes': { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

/** Budgets per instance and way that stop a runaway instance: the defaults of one crew run's budget, and an hour. */
export const EVAL_DEFAULTS = { maxTokens: 2_000_000, maxCostUsd: 20, maxMinutes: 60, concurrency: 1, out: 'crew-eval' } as const;

type Verb = 'run' | 'list' | 'status' | 'show' | 'init' | 'doctor' | 'eval';
type Token = NonNullable<ReturnType<typeof parseOptions>['tokens']>[number];
type OptionToken = Extract<Token, { kind: 'option' }>;
type AllOptions = typeof RUN_OPTIONS & typeof INIT_OPTIONS & typeof DOCTOR_OPTIONS;
type Values = {
  [K in keyof AllOptions]?: AllOptions[K] extends { multiple: true } ? string[] : AllOptions[K] extends { type: 'string' } ? string : boolean;
};

const optionsOf = (verb: Verb): ParseArgsOptionsConfig =>
  verb === 'run'
    ? RUN_OPTIONS
    : verb === 'show'
      ? SHOW_OPTIONS
      : verb === 'init'
        ? INIT_OPTIONS
        : verb === 'doctor'
          ? DOCTOR_OPTIONS
          : verb === 'eval'
            ? EVAL_OPTIONS
            : OTHER_OPTIONS;

const SPELLED: Record<string, string> = {
  project: '--project DIR',
  yes: '--yes',
  form: '--form short|full',
  repo: '--repo OWNER/NAME',
  json: '--json',
  attempt: '--attempt N',
  agent: '--agent NAME',
};
/** The options a command other than run takes, as its help spells them. */
const takes = (options: ParseArgsOptionsConfig): string =>
  Object.keys(options)
    .filter((o) => o !== 'help')
    .map((o) => SPELLED[o] ?? `--${o}`)
    .join(', ');

/** `--criteria` as it was typed, or the long name for `-v`. */
const spelled = (t: OptionToken): string => (t.rawName.startsWith('--') ? t.rawName : `${t.rawName} (--${t.name})`);

function providerOf(flag: string, value: string | undefined): Provider | undefined {
  if (value === undefined) return undefined;
  if (!(PROVIDERS as readonly string[]).includes(value)) throw new UsageError(`${flag} is one of ${PROVIDERS.join(', ')} (got '${value}').`);
  return value as Provider;
}

function positiveInt(flag: string, value: string | undefined): number {
  if (value === undefined || !/^[1-9][0-9]*$/.test(value))
    throw new UsageError(`${flag} needs a positive whole number (got ${value === undefined ? 'nothing' : `'${value}'`}).`);
  return Number(value);
}

/** `--resume=7` is `--resume 7`: the one option whose value may be left out (up to `--`, after which all is positional). */
function splitResume(args: string[]): string[] {
  const end = args.includes('--') ? args.indexOf('--') : args.length;
  return args.flatMap((a, i) => {
    if (i >= end || !a.startsWith('--resume=')) return [a];
    const run = a.slice('--resume='.length);
    if (!/^[0-9]+$/.test(run))
      throw new UsageError(`--resume takes a run number (got '${run}'): crew run --resume 7, or crew run --resume for the latest run.`);
    return ['--resume', run];
  });
}

/**
 * Why parseArgs refused the line, in crew's words: the first option, in order, that is unknown (or
 * another command's), lacks its value, or has one it does not take. Read from the tokens of a lenient
 * parse of the same line, so nothing depends on Node's wording.
 */
function explain(verb: Verb, tokens: Token[], options: ParseArgsOptionsConfig, error: Error): string {
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const known = options[t.name];
    if (known === undefined) {
      const ofRun = Object.entries(RUN_OPTIONS).find(([name, o]) => name === t.name || ('short' in o && o.short === t.name));
      if (ofRun && verb !== 'run') return `crew ${verb} does not take ${t.rawName} (an option of crew run); crew ${verb} takes ${takes(options)}.`;
      const dash = t.rawName.startsWith('--') ? '' : `; a task that starts with '-' goes after --: crew run -- "-task"`;
      return `unknown option '${t.rawName}' for crew ${verb} (crew --help lists the options${dash}).`;
    }
    if (known.type === 'boolean' && t.value !== undefined) return `${spelled(t)} takes no value (got '${t.value}'); leave out '=${t.value}'.`;
    if (known.type === 'string' && t.value === undefined) return `${t.rawName} needs a value: ${t.rawName} VALUE, or ${t.rawName}=VALUE.`;
    if (known.type === 'string' && !t.inlineValue && t.value?.startsWith('-'))
      return `${t.rawName} needs a value, and '${t.value}' after it looks like an option. For a value that starts with '-', write ${t.rawName}='${t.value}'.`;
  }
  return error.message;
}

/** Refuses a single-value option given twice (parseArgs would keep the last one silently) and an empty value. */
function checkRepeats(tokens: Token[], options: ParseArgsOptionsConfig): void {
  const seen = new Map<string, string>();
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const o = options[t.name]!;
    if (o.type === 'string' && t.value?.trim() === '') throw new UsageError(`${t.rawName} is empty: give it a value (${t.rawName} VALUE).`);
    if (o.multiple || (o.type === 'boolean' && t.name !== 'resume')) continue;
    const shown = t.name === 'resume' ? '--resume' : `${t.rawName} '${t.value}'`;
    const before = seen.get(t.name);
    if (before !== undefined) throw new UsageError(`${t.rawName} was given twice (${before}, then ${shown}); give it once.`);
    seen.set(t.name, shown);
  }
}

export function parseArgs(argv: string[], cwd: string): Command {
  const [verb, ...given] = argv;
  if (verb === undefined || verb === 'help' || verb === '--help' || verb === '-h') return { kind: 'help' };
  if (verb === '--version' || verb === 'version') return { kind: 'version' };
  if (verb !== 'run' && verb !== 'list' && verb !== 'status' && verb !== 'show' && verb !== 'init' && verb !== 'doctor' && verb !== 'eval')
    throw new UsageError(
      `unknown command '${verb}'. Use crew run, crew list, crew status, crew show, crew init, crew doctor or crew eval (crew --help shows them all).`,
    );

  const args = verb === 'run' ? splitResume(given) : given;
  const options = optionsOf(verb);
  // --help or -h on its own anywhere (as an option, not a value) shows the help, whatever else is wrong with the
  // line; inside a group of short options (-vh) only when the rest is right, so a task like "-fix the bug" is not -h.
  const { tokens } = parseOptions({ args, options, strict: false, allowPositionals: true, tokens: true });
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help' && (args[t.index] === '--help' || args[t.index] === '-h'))) return { kind: 'help' };

  let parsed: { values: object; positionals: string[]; tokens: Token[] };
  try {
    parsed = parseOptions({ args, options, strict: true, allowPositionals: true, tokens: true });
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')) throw new UsageError(explain(verb, tokens, options, e as Error));
    throw e;
  }
  const values = parsed.values as Values;
  if (values.help) return { kind: 'help' };
  checkRepeats(parsed.tokens, options);
  const project = values.project ?? cwd;

  if (verb === 'list') {
    if (parsed.positionals.length) throw new UsageError(`crew list takes no arguments (got '${parsed.positionals[0]}').`);
    return { kind: 'list', project };
  }
  if (verb === 'init') {
    if (parsed.positionals.length)
      throw new UsageError(`crew init takes no arguments (got '${parsed.positionals[0]}'); run it in a clone, or pass --project DIR.`);
    const form = values.form ?? 'short';
    if (form !== 'short' && form !== 'full')
      throw new UsageError(`--form is short (one job that calls crew's reusable workflow) or full (every job in your file); got '${form}'.`);
    return { kind: 'init', project, yes: values.yes === true, form };
  }
  if (verb === 'doctor') {
    if (parsed.positionals.length)
      throw new UsageError(`crew doctor takes no arguments (got '${parsed.positionals[0]}'); name another repository with --repo OWNER/NAME.`);
    const repo = values.repo;
    if (repo !== undefined && !/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new UsageError(`--repo is OWNER/NAME, as in github.com/OWNER/NAME (got '${repo}').`);
    return { kind: 'doctor', project, json: values.json === true, ...(repo !== undefined ? { repo } : {}) };
  }
  if (verb === 'status') {
    if (parsed.positionals.length > 1) throw new UsageError('crew status takes at most one run number.');
    const [run] = parsed.positionals;
    return { kind: 'status', project, ...(run !== undefined ? { run: positiveInt('the run number', run) } : {}) };
  }

  if (verb === 'show') return showCommand(parsed.positionals, values as ShowValues, project);
  if (verb === 'eval') return evalCommand(parsed.positionals, values as EvalValues, cwd);

  // The positional right after --resume is its run number when it is a number.
  const resumeAt = parsed.tokens.find((t) => t.kind === 'option' && t.name === 'resume')?.index;
  let resume: number | 'latest' | undefined = values.resume ? 'latest' : undefined;
  const positional: string[] = [];
  for (const t of parsed.tokens) {
    if (t.kind !== 'positional') continue;
    if (resumeAt !== undefined && t.index === resumeAt + 1 && /^[0-9]+$/.test(t.value)) resume = positiveInt('--resume', t.value);
    else positional.push(t.value);
  }
  const criteria = parsed.tokens.flatMap((t) => (t.kind === 'option' && (t.name === 'criteria' || t.name === 'criterion') ? [t.value!] : []));
  const configFile = values.config;
  const maxIterations = values['max-iterations'] === undefined ? undefined : positiveInt('--max-iterations', values['max-iterations']);

  if (positional.length > 1)
    throw new UsageError(`crew run takes one task in quotes; got ${positional.length} words. Quote the task: crew run "${positional.join(' ')}".`);
  const task = positional[0];
  const images = values.image ?? [];
  if (resume !== undefined && (task !== undefined || configFile !== undefined || criteria.length || images.length))
    throw new UsageError('--resume continues an existing run; it takes no task, --criteria, --image or --config.');
  if (resume === undefined && task === undefined && configFile === undefined)
    throw new UsageError('crew run needs a task: crew run "what to do" --criteria "how to tell it is done", or --config task.yaml, or --resume.');
  if (task !== undefined && !task.trim()) throw new UsageError('the task is empty: say what crew should do.');
  return {
    kind: 'run',
    task,
    criteria,
    configFile,
    resume,
    project,
    maxIterations,
    verbose: values.verbose === true,
    scripted: values.scripted,
    images,
    allowUnsandboxed: values['allow-unsandboxed'] === true,
    allowSetup: values['allow-setup'] === true,
    ...(values.provider !== undefined ? { provider: providerOf('--provider', values.provider) } : {}),
    ...(values['fallback-provider'] !== undefined ? { fallbackProvider: providerOf('--fallback-provider', values['fallback-provider']) } : {}),
  };
}

type ShowValues = { attempt?: string; agent?: string; json?: boolean };

/** `crew show [run] [task]`: a number is the run, a task id (t1) the task; either may be left out. */
function showCommand(positionals: string[], values: ShowValues, project: string): Command {
  let run: number | undefined;
  let task: string | undefined;
  for (const p of positionals) {
    if (/^[0-9]+$/.test(p) && run === undefined && task === undefined) run = positiveInt('the run number', p);
    else if (/^t[1-9][0-9]{0,2}$/.test(p) && task === undefined) task = p;
    else throw new UsageError(`crew show takes a run number and a task id such as t1 (got '${p}'): crew show 3 t1.`);
  }
  const agent = values.agent;
  if (agent !== undefined && !(AGENTS as readonly string[]).includes(agent)) throw new UsageError(`--agent is one of ${AGENTS.join(', ')} (got '${agent}').`);
  return {
    kind: 'show',
    project,
    json: values.json === true,
    ...(run !== undefined ? { run } : {}),
    ...(task !== undefined ? { task } : {}),
    ...(values.attempt !== undefined ? { attempt: positiveInt('--attempt', values.attempt) } : {}),
    ...(agent !== undefined ? { agent: agent as AgentName } : {}),
  };
}

type EvalValues = {
  ids?: string[];
  limit?: string;
  way?: string;
  concurrency?: string;
  out?: string;
  scripted?: string;
  provider?: string;
  'allow-unsandboxed'?: boolean;
  'max-iterations'?: string;
  'max-tokens'?: string;
  'max-cost'?: string;
  'max-minutes'?: string;
};

/** `crew eval INSTANCES.jsonl [options]`. */
function evalCommand(positionals: string[], v: EvalValues, cwd: string): Command {
  if (positionals.length !== 1)
    throw new UsageError(
      `crew eval takes one instances file (JSON Lines, SWE-bench's format), got ${positionals.length}: crew eval eval/suite.jsonl --out results.`,
    );
  let ways: Way[];
  try {
    ways = parseWays(v.way ?? 'both');
  } catch (e) {
    throw new UsageError(`${(e as Error).message}.`);
  }
  const cost = v['max-cost'];
  if (cost !== undefined && !(/^[0-9]+(\.[0-9]+)?$/.test(cost) && Number(cost) > 0))
    throw new UsageError(`--max-cost needs a positive number of dollars (got '${cost}').`);
  const ids = (v.ids ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const maxIterations = v['max-iterations'] === undefined ? undefined : positiveInt('--max-iterations', v['max-iterations']);
  if (maxIterations !== undefined && maxIterations > 10) throw new UsageError(`--max-iterations is at most 10 (got ${maxIterations}).`);
  const maxTokens = v['max-tokens'] === undefined ? EVAL_DEFAULTS.maxTokens : positiveInt('--max-tokens', v['max-tokens']);
  if (maxTokens < 1000) throw new UsageError(`--max-tokens is at least 1000 (got ${maxTokens}).`);
  return {
    kind: 'eval',
    instances: positionals[0]!,
    ...(ids.length ? { ids } : {}),
    ...(v.limit !== undefined ? { limit: positiveInt('--limit', v.limit) } : {}),
    ways,
    concurrency: v.concurrency === undefined ? EVAL_DEFAULTS.concurrency : positiveInt('--concurrency', v.concurrency),
    out: v.out ?? `${cwd}/${EVAL_DEFAULTS.out}`,
    ...(v.scripted !== undefined ? { scripted: v.scripted } : {}),
    ...(v.provider !== undefined ? { provider: providerOf('--provider', v.provider) } : {}),
    allowUnsandboxed: v['allow-unsandboxed'] === true,
    ...(maxIterations !== undefined ? { maxIterations } : {}),
    maxTokens,
    maxCostUsd: cost === undefined ? EVAL_DEFAULTS.maxCostUsd : Number(cost),
    maxMinutes: v['max-minutes'] === undefined ? EVAL_DEFAULTS.maxMinutes : positiveInt('--max-minutes', v['max-minutes']),
  };
}
