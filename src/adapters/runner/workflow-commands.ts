import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { appendFile, stat } from 'node:fs/promises';

/**
 * The few workflow commands crew's Action speaks, written as the runner reads them, in place of @actions/core
 * (which pulls @actions/http-client and undici into every job's start, #53). The forms follow actions/toolkit's
 * packages/core/src (core.ts, command.ts, file-command.ts, summary.ts) and actions/runner's
 * src/Runner.Worker/ActionCommandManager.cs (`::name::data`, the data unescaped) and
 * FileCommandManager.cs (GITHUB_OUTPUT as `name=value` or `name<<DELIMITER` … `DELIMITER`, lines split on `\n`).
 * Callers import it whole as `core`, so the job log's writers stay `core.<name>(` (tests/unit/crew/inert-log.test.ts).
 */

/** An input of the action: `INPUT_<NAME>` with spaces as `_`, upper case, trimmed, as the runner sets it. */
export function getInput(name: string): string {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** A command's data: the runner unescapes `%25`, `%0D`, `%0A` (ActionCommand.Unescape). crew's commands take no properties. */
function command(name: string, data: string): void {
  process.stdout.write(`::${name}::${data.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}\n`);
}

/** A line of the job log, as it is. */
export function info(message: string): void {
  process.stdout.write(`${message}\n`);
}

export function warning(message: string): void {
  command('warning', message);
}

function error(message: string): void {
  command('error', message);
}

/** The step fails (exit code 1 once the process ends) with `message` as its error. */
export function setFailed(message: string): void {
  process.exitCode = 1;
  error(message);
}

/** Masked as `***` in every later line of the job's log. */
export function setSecret(secret: string): void {
  command('add-mask', secret);
}

export function startGroup(name: string): void {
  command('group', name);
}

export function endGroup(): void {
  command('endgroup', '');
}

/**
 * A step output, appended to GITHUB_OUTPUT as a heredoc whose delimiter is random, so no value can end it early
 * or add an output of its own; a name or value holding the delimiter is refused, as file-command.ts does.
 */
export function setOutput(name: string, value: string): void {
  const file = process.env.GITHUB_OUTPUT;
  if (!file) throw new Error('GITHUB_OUTPUT is not set: crew must run as a step of a GitHub Actions job to set its outputs.');
  appendFileSync(file, `${heredoc(name, value)}\n`, 'utf8');
}

export function heredoc(name: string, value: string, id: string = randomUUID()): string {
  const delimiter = `ghadelimiter_${id}`;
  if (name.includes(delimiter) || value.includes(delimiter)) throw new Error(`the output ${name} holds its own delimiter ${delimiter}; not written.`);
  return `${name}<<${delimiter}\n${value}\n${delimiter}`;
}

/**
 * The most a step's summary file may hold: over it the runner uploads none of it and logs an error
 * (actions/runner src/Runner.Worker/FileCommandManager.cs, CreateStepSummaryCommand.AttachmentSizeLimit).
 */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;

/**
 * Markdown appended to the job's summary page (GITHUB_STEP_SUMMARY). What would take the step's file
 * past the runner's limit is cut at a line, with a line saying so, so the summary shows at all.
 */
export async function appendSummary(markdown: string, limit = STEP_SUMMARY_LIMIT): Promise<void> {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) throw new Error('GITHUB_STEP_SUMMARY is not set: this runner keeps no job summary.');
  const held = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  const bytes = Buffer.byteLength(markdown, 'utf8');
  if (held + bytes <= limit) return appendFile(file, markdown, 'utf8');
  const note = `\n\n_crew cut this summary short: GitHub shows at most ${limit / 1024} KiB of a step's summary._\n`;
  const room = limit - held - Buffer.byteLength(note, 'utf8');
  if (room <= 0) return;
  const fits = Buffer.from(markdown, 'utf8').subarray(0, room).toString('utf8');
  const kept = fits.slice(0, Math.max(0, fits.lastIndexOf('\n')));
  await appendFile(file, `${kept}${note}`, 'utf8');
}
