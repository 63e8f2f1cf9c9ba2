import { UsageError } from './workspace';

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
      /** Run agents' commands without a sandbox where none can start (the person's opt-in; never the repository's). */
      allowUnsandboxed: boolean;
      /** Run the repository's \`setup:\` commands without asking. */
      allowSetup: boolean;
    }
  | { kind: 'list'; project: string }
  | { kind: 'status'; run?: number; project: string };

export const USAGE = `crew: turn a request into reviewed, committed work on a local git repository.

Usage:
  crew run "task" [--criteria "…"]...    plan, work, judge and commit on a crew/local-<run>/result branch
  crew run --config task.yaml            the task and criteria (and any .github/crew.yml key) from a file
  crew run --resume [run]                continue the latest run, or the one named
  crew list                              the runs, with status, iterations and date
  crew status [run]                      the plan view of a run (the latest by default)

Options:
  --project DIR          the repository to work on (default: the current folder)
  --max-iterations N     how many times the critic may send the work back (overrides max_iterations)
  --verbose              show the agents' tool calls and text as they happen
  --scripted FILE        play scripted model replies from FILE instead of calling the Anthropic API
  --allow-setup          run the repository's setup: commands (.github/crew.yml or the task file) without
                         asking; without it crew shows them and asks once for each new content
  --allow-unsandboxed    where no sandbox can start here, let agents' commands run without one (as you,
                         with network); without it run_command is refused there

The model: set ANTHROPIC_API_KEY, or ANTHROPIC_BASE_URL for an Anthropic-compatible gateway.
Exit codes: 0 done, 1 not done (criteria unmet, failed, or waiting for you), 2 usage or configuration error, 130 interrupted.`;

function positiveInt(flag: string, value: string | undefined): number {
  if (value === undefined || !/^[1-9][0-9]*$/.test(value))
    throw new UsageError(`${flag} needs a positive whole number (got ${value === undefined ? 'nothing' : `'${value}'`}).`);
  return Number(value);
}

export function parseArgs(argv: string[], cwd: string): Command {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === 'help' || verb === '--help' || verb === '-h') return { kind: 'help' };
  if (verb === '--version' || verb === 'version') return { kind: 'version' };
  if (verb !== 'run' && verb !== 'list' && verb !== 'status')
    throw new UsageError(`unknown command '${verb}'. Use crew run, crew list or crew status (crew --help shows them all).`);

  let project = cwd;
  const criteria: string[] = [];
  const positional: string[] = [];
  let configFile: string | undefined;
  let resume: number | 'latest' | undefined;
  let maxIterations: number | undefined;
  let verbose = false;
  let scripted: string | undefined;
  let allowUnsandboxed = false;
  let allowSetup = false;
  const value = (i: number, flag: string) => {
    const v = rest[i + 1];
    if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value.`);
    return v;
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const take = () => (inline !== undefined ? inline : value(i++, flag));
    if (flag === '--project') project = take();
    else if (flag === '--criteria' || flag === '--criterion') criteria.push(take());
    else if (flag === '--config') configFile = take();
    else if (flag === '--max-iterations') maxIterations = positiveInt(flag, take());
    else if (flag === '--verbose' || flag === '-v') verbose = true;
    else if (flag === '--scripted') scripted = take();
    else if (flag === '--allow-unsandboxed') allowUnsandboxed = true;
    else if (flag === '--allow-setup') allowSetup = true;
    else if (flag === '--resume') {
      const next = inline ?? rest[i + 1];
      if (next !== undefined && /^[0-9]+$/.test(next)) {
        resume = positiveInt(flag, next);
        if (inline === undefined) i++;
      } else resume = 'latest';
    } else if (flag === '--help' || flag === '-h') return { kind: 'help' };
    else if (flag.startsWith('-')) throw new UsageError(`unknown option '${flag}' for crew ${verb} (crew --help lists the options).`);
    else positional.push(a);
  }

  if (verb === 'list') {
    if (positional.length) throw new UsageError(`crew list takes no arguments (got '${positional[0]}').`);
    return { kind: 'list', project };
  }
  if (verb === 'status') {
    if (positional.length > 1) throw new UsageError('crew status takes at most one run number.');
    return { kind: 'status', project, ...(positional[0] !== undefined ? { run: positiveInt('the run number', positional[0]) } : {}) };
  }
  if (positional.length > 1)
    throw new UsageError(`crew run takes one task in quotes; got ${positional.length} words. Quote the task: crew run "${positional.join(' ')}".`);
  const task = positional[0];
  if (resume !== undefined && (task !== undefined || configFile !== undefined || criteria.length))
    throw new UsageError('--resume continues an existing run; it takes no task, --criteria or --config.');
  if (resume === undefined && task === undefined && configFile === undefined)
    throw new UsageError('crew run needs a task: crew run "what to do" --criteria "how to tell it is done", or --config task.yaml, or --resume.');
  if (task !== undefined && !task.trim()) throw new UsageError('the task is empty: say what crew should do.');
  return { kind: 'run', task, criteria, configFile, resume, project, maxIterations, verbose, scripted, allowUnsandboxed, allowSetup };
}
