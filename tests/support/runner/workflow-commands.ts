/**
 * Workflow commands in a step's output, read the way GitHub's runner reads them. Source: actions/runner
 * (checked at 258d6c8, 2026-08): `src/Runner.Common/ActionCommand.cs` (`TryParseV2`, `TryParse`),
 * `src/Runner.Worker/ActionCommandManager.cs` (`TryProcessCommand`, the command extensions),
 * `src/Runner.Worker/Handlers/OutputManager.cs` (a line that is a command is not logged as it is) and
 * `Handlers/Handler.cs` (each step's handler gets its own command manager, so `stop-commands` lasts
 * to the end of the step; the secret masker is the job's).
 *
 * - `::name props::data` after leading white space (.NET `TrimStart`), and the older `##[name props]data`
 *   anywhere in a line, tried in that order; a name that is not registered is no command (case ignored).
 * - `stop-commands::TOKEN` echoes its line, masks a token longer than 6 characters, and until a command
 *   named TOKEN (either form) every other command is plain output. An empty token, a registered
 *   name or `pause-logging` is refused and fails the step.
 * - `add-mask` masks its value (and each line of it) from then on, in every later line of the job and in
 *   the job's outputs (an output containing a masked value is skipped, with a warning: JobExtension.cs).
 * - A command whose processing throws (`set-env`, `add-path`, `echo` with a bad value, a missing `name`)
 *   costs two error annotations and fails the step, whatever the process's exit code.
 */

/** Commands the runner registers (its command extensions, plus `stop-commands`). */
export const REGISTERED_COMMANDS = [
  'stop-commands',
  'set-env',
  'set-output',
  'save-state',
  'add-mask',
  'add-path',
  'add-matcher',
  'remove-matcher',
  'debug',
  'warning',
  'error',
  'notice',
  'group',
  'endgroup',
  'echo',
] as const;

/** Extensions that do not echo their line with `::echo::on` (`OmitEcho`). */
const OMIT_ECHO = new Set(['add-mask', 'debug', 'warning', 'error', 'notice']);

export interface ParsedCommand {
  /** Lower-cased: the runner's registry ignores case. */
  command: string;
  properties: Record<string, string>;
  data: string;
  form: 'v2' | 'v1';
}

/** A command the runner acted on: what the fake records per job, so tests can say which lines were commands. */
export interface ProcessedCommand extends ParsedCommand {
  line: string;
  step: string;
}

/** .NET `Char.IsWhiteSpace`: the separators, U+0009–U+000D and U+0085. */
const DOTNET_LEADING_SPACE = /^[\p{Zs}\p{Zl}\p{Zp}\u0009-\u000d\u0085]+/u;

const unescape = (s: string, pairs: ReadonlyArray<[string, string]>) => pairs.reduce((out, [esc, ch]) => out.split(esc).join(ch), s);
// The order of ActionCommand's mapping arrays, which matters for `%25`.
const V1_ESCAPES: Array<[string, string]> = [
  ['%3B', ';'],
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%5D', ']'],
  ['%25', '%'],
];
const DATA_ESCAPES: Array<[string, string]> = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%25', '%'],
];
const PROPERTY_ESCAPES: Array<[string, string]> = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%3A', ':'],
  ['%2C', ','],
  ['%25', '%'],
];

function properties(text: string, separator: string, escapes: ReadonlyArray<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of text.split(separator).filter(Boolean)) {
    const eq = p.indexOf('=');
    if (eq > 0 && eq < p.length - 1) out[p.slice(0, eq)] = unescape(p.slice(eq + 1), escapes);
  }
  return out;
}

function nameOf(info: string, registered: ReadonlySet<string>): { name: string; rest: string | undefined } | undefined {
  const space = info.indexOf(' ');
  const name = (space < 0 ? info : info.slice(0, space)).toLowerCase();
  if (!registered.has(name)) return undefined;
  return { name, rest: space > 0 ? info.slice(space + 1) : undefined };
}

/** `ActionCommand.TryParseV2`. */
export function parseV2(line: string, registered: ReadonlySet<string>): ParsedCommand | undefined {
  const message = line.replace(DOTNET_LEADING_SPACE, '');
  if (!message.startsWith('::')) return undefined;
  const end = message.indexOf('::', 2);
  if (end < 0) return undefined;
  const named = nameOf(message.slice(2, end), registered);
  if (!named) return undefined;
  return {
    command: named.name,
    properties: named.rest === undefined ? {} : properties(named.rest.trim(), ',', PROPERTY_ESCAPES),
    data: unescape(message.slice(end + 2), DATA_ESCAPES),
    form: 'v2',
  };
}

/** `ActionCommand.TryParse`: the older form, found anywhere in the line. */
export function parseV1(line: string, registered: ReadonlySet<string>): ParsedCommand | undefined {
  const prefix = line.indexOf('##[');
  if (prefix < 0) return undefined;
  const rb = line.indexOf(']', prefix);
  if (rb < 0) return undefined;
  const named = nameOf(line.slice(prefix + 3, rb), registered);
  if (!named) return undefined;
  return {
    command: named.name,
    properties: named.rest === undefined ? {} : properties(named.rest, ';', V1_ESCAPES),
    data: unescape(line.slice(rb + 1), V1_ESCAPES),
    form: 'v1',
  };
}

export interface CommandHost {
  /** Writes a line to the job's log (the runner masks it). */
  output(line: string): void;
  annotate(level: 'error' | 'warning' | 'notice', message: string): void;
  addMask(value: string): void;
  setOutput(name: string, value: string): void;
  /** The step's environment as the runner sees it (for `ACTIONS_ALLOW_UNSECURE_*`). */
  env: Record<string, string | undefined>;
  /** Reads a problem-matcher file named by `add-matcher`; throws when it cannot. */
  readMatcher(path: string): void;
  /** Every command acted on, for tests. */
  record(c: ParsedCommand, line: string): void;
}

const STOP_TOKEN_REFUSED =
  "You cannot use a endToken that is an empty string, the string 'pause-logging', or another workflow command. For more information see: https://docs.github.com/actions/learn-github-actions/workflow-commands-for-github-actions#example-stopping-and-starting-workflow-commands or opt into insecure command execution by setting the `ACTIONS_ALLOW_UNSECURE_STOPCOMMAND_TOKENS` environment variable to `true`.";
const disabled = (name: string) =>
  `The \`${name}\` command is disabled. Please upgrade to using Environment Files or opt into unsecure command execution by setting the \`ACTIONS_ALLOW_UNSECURE_COMMANDS\` environment variable to \`true\`. For more information see: https://github.blog/changelog/2020-10-01-github-actions-deprecating-set-env-and-add-path-commands/`;

/** One step's command manager (`ActionCommandManager`): its stop state and its echo setting. */
export class StepCommands {
  private readonly registered = new Set<string>(REGISTERED_COMMANDS);
  private stopToken: string | undefined;
  private echo = false;
  /** Set when a command failed: the step fails whatever its exit code (StepsRunner merges `CommandResult`). */
  failed = false;

  constructor(private readonly host: CommandHost) {}

  /** `TryProcessCommand`: true when the line was a command (and so is not logged as it is). */
  process(line: string): boolean {
    if (!line) return false;
    const c = parseV2(line, this.registered) ?? parseV1(line, this.registered);
    if (!c) return false;
    if (this.stopToken !== undefined) {
      if (!this.stopToken || c.command !== this.stopToken.toLowerCase()) return false;
      this.host.output(line);
      this.registered.delete(this.stopToken.toLowerCase());
      this.stopToken = undefined;
      this.host.record(c, line);
      return true;
    }
    this.host.record(c, line);
    if (c.command === 'stop-commands') {
      const allowed = /^true$/i.test(this.host.env.ACTIONS_ALLOW_UNSECURE_STOPCOMMAND_TOKENS ?? '');
      if (!allowed && (!c.data || this.registered.has(c.data.toLowerCase()) || c.data.toLowerCase() === 'pause-logging')) {
        // ValidateStopToken throws outside the extensions' try, so the runner's own wording of the failure
        // is not known; the fake fails the step with the exception's message, as it does for the others.
        this.fail(line, new Error(STOP_TOKEN_REFUSED), false);
        return true;
      }
      this.stopToken = c.data;
      this.registered.add(c.data.toLowerCase());
      if (c.data.length > 6) this.host.addMask(c.data);
      this.host.output(line);
      return true;
    }
    if (this.echo && !OMIT_ECHO.has(c.command)) this.host.output(line);
    try {
      this.run(c);
    } catch (e) {
      this.fail(line, e as Error, OMIT_ECHO.has(c.command), c.command);
    }
    return true;
  }

  private fail(line: string, e: Error, omitEcho: boolean, command = 'stop-commands') {
    this.host.annotate('error', `Unable to process command '${omitEcho ? command : line}' successfully.`);
    this.host.annotate('error', e.message);
    this.failed = true;
  }

  private run(c: ParsedCommand) {
    const unsecure = /^true$/i.test(this.host.env.ACTIONS_ALLOW_UNSECURE_COMMANDS ?? '');
    switch (c.command) {
      case 'add-mask':
        if (!c.data.trim()) {
          this.host.annotate('warning', "Can't add secret mask for empty string in ##[add-mask] command.");
          return;
        }
        if (this.echo) this.host.output('::add-mask::***');
        this.host.addMask(c.data);
        for (const part of c.data.split(/[\r\n]/)) if (part.trim()) this.host.addMask(part.trim());
        return;
      case 'warning':
      case 'error':
      case 'notice':
        this.host.annotate(c.command, c.data);
        return;
      case 'debug':
        return;
      case 'group':
        this.host.output(`##[group]${c.data}`);
        return;
      case 'endgroup':
        this.host.output('##[endgroup]');
        return;
      case 'echo': {
        const v = c.data.trim().toUpperCase();
        if (v === 'ON' || v === 'OFF') this.echo = v === 'ON';
        else throw new Error(`Invalid echo command value. Possible values can be: 'on', 'off'. Current value is: '${c.data}'.`);
        return;
      }
      case 'set-output':
      case 'save-state': {
        const name = c.properties.name;
        if (!name) throw new Error(`Required field 'name' is missing in ##[${c.command}] command.`);
        if (c.command === 'set-output') this.host.setOutput(name, c.data);
        return;
      }
      case 'set-env':
      case 'add-path':
        if (!unsecure) throw new Error(disabled(c.command));
        throw new Error(`the fake runner does not carry out \`${c.command}\` (ACTIONS_ALLOW_UNSECURE_COMMANDS is set)`);
      case 'add-matcher':
        if (!c.data) {
          this.host.annotate('warning', 'File path must be specified.');
          return;
        }
        this.host.readMatcher(c.data);
        return;
      case 'remove-matcher': {
        const owner = c.properties.owner;
        if (owner && c.data)
          this.host.annotate('warning', 'Either specify an owner name or a file path in ##[remove-matcher] command. Both values cannot be set.');
        else if (!owner && !c.data) this.host.annotate('warning', 'Either an owner name or a file path must be specified in ##[remove-matcher] command.');
        else if (c.data) this.host.readMatcher(c.data);
        return;
      }
    }
  }
}
