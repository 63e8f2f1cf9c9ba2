import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { appendFile, readFile, stat, truncate, writeFile } from 'node:fs/promises';

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

/** Where a step's summary was cut, by file: its size with the note, how much the note holds back, and the note's start. */
const cuts = new Map<string, { size: number; body: number; dropped: number }>();
/** The summary appends under way, one after the other. */
let summaryWrites: Promise<void> = Promise.resolve();

function cutNote(dropped: number, limit: number): string {
  return `\n\n_crew cut this summary short: the last ${dropped} bytes of it are left out, as GitHub shows at most ${limit / 1024} KiB of a step's summary._\n`;
}

/**
 * Markdown appended to the job's summary page (GITHUB_STEP_SUMMARY). What would take the step's file past the
 * runner's limit is cut at a line and a note ends the file saying how much is left out; once cut, every later
 * append is left out too and counted in that note, which stays last, so the page never shows text after a gap
 * it does not own up to. The cut is remembered by file and size: a file someone else changed since is taken as it is.
 */
export function appendSummary(markdown: string, limit = STEP_SUMMARY_LIMIT): Promise<void> {
  // One at a time: each reads the file's size and the cut before it writes.
  const next = summaryWrites.then(() => appendSummaryNow(markdown, limit));
  summaryWrites = next.catch(() => undefined);
  return next;
}

async function appendSummaryNow(markdown: string, limit: number): Promise<void> {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) throw new Error('GITHUB_STEP_SUMMARY is not set: this runner keeps no job summary.');
  const size = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  const bytes = Buffer.byteLength(markdown, 'utf8');
  const cut = cuts.get(file);
  if (cut && cut.size === size) {
    // Already cut: this one is left out whole, and the note, rewritten in place, counts it; a count grown by a
    // digit or more takes the kept text back a line or so more, so the file stays within the limit.
    let { body, dropped } = cut;
    dropped += bytes;
    if (body + Buffer.byteLength(cutNote(dropped + body, limit), 'utf8') > limit) {
      const kept = (await readFile(file)).subarray(0, body);
      const shorter = Math.max(0, kept.subarray(0, limit - Buffer.byteLength(cutNote(dropped + body, limit), 'utf8')).lastIndexOf(0x0a));
      dropped += body - shorter;
      body = shorter;
    }
    const note = cutNote(dropped, limit);
    await truncate(file, body);
    await appendFile(file, note, 'utf8');
    cuts.set(file, { size: body + Buffer.byteLength(note, 'utf8'), body, dropped });
    return;
  }
  cuts.delete(file);
  if (size + bytes <= limit) return appendFile(file, markdown, 'utf8');
  // What is there and the new part, cut at the last line that leaves room for the note; the note's room is
  // reckoned with the most it could count, so the file never ends past the limit.
  const whole = Buffer.concat([await readFile(file).catch(() => Buffer.alloc(0)), Buffer.from(markdown, 'utf8')]);
  const room = Math.max(0, limit - Buffer.byteLength(cutNote(whole.length, limit), 'utf8'));
  const body = Math.max(0, whole.subarray(0, room).lastIndexOf(0x0a));
  const note = cutNote(whole.length - body, limit);
  await writeFile(file, Buffer.concat([whole.subarray(0, body), Buffer.from(note, 'utf8')]));
  cuts.set(file, { size: body + Buffer.byteLength(note, 'utf8'), body, dropped: whole.length - body });
}
