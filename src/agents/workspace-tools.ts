import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { applyAt, changedRegions, nearestMatch, numbered, occurrences, severalMatches } from '../domain/edit-answer';
import { fileWindow, linesOf, WINDOW_BYTES, WINDOW_LINES, LINE_CHARS } from '../domain/file-window';
import type { AgentTool } from './tool-loop';
import type { PathJail } from './path-jail';
import { bounded } from './bounded-tool';
import { syntaxCheckFor } from './syntax-check';

/** read_file reads files up to this size (it shows a window of them); a larger one is read with run_command. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const MAX_LIST = 500;
/** list_files answers with at most this many bytes of paths. */
const MAX_LIST_BYTES = 30_000;

const thousands = (x: number) => x.toLocaleString('en-US');

/**
 * Opens the file itself, never a link in its place (O_NOFOLLOW), and refuses a file with
 * other hard links: the path jail resolved every link already, so either would mean the
 * checkout changed under it.
 */
async function openNoFollow(file: string, flags: number) {
  const fh = await open(file, flags | constants.O_NOFOLLOW, 0o666).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ELOOP') throw new Error(`'${file}' became a symbolic link; crew does not follow it`);
    throw e;
  });
  const s = await fh.stat();
  if (!s.isFile() || s.nlink > 1) {
    await fh.close();
    throw new Error(s.isFile() ? `'${file}' has other hard links; crew does not change a file that is also elsewhere` : `'${file}' is not a regular file`);
  }
  return fh;
}

const readText = async (file: string): Promise<string> => (await readBytes(file)).toString('utf8');

/**
 * As root, crew writes for the sandbox's tool user too: run_command runs as that user, and
 * the workspace is opened to it at job start (sandbox/command-runner.ts). Files and folders
 * crew creates later get the same access, or the agent could not change them with a command.
 */
const forToolUser = () => process.getuid?.() === 0;

async function writeText(file: string, content: string): Promise<void> {
  const created = await stat(file).then(
    () => false,
    () => true,
  );
  const fh = await openNoFollow(file, constants.O_WRONLY | constants.O_CREAT);
  try {
    await fh.truncate(0);
    await fh.writeFile(content);
    if (created && forToolUser()) await fh.chmod(0o666);
  } finally {
    await fh.close();
  }
}

/** Creates the folders of a path; as root, new ones are opened to the tool user like the rest of the workspace. */
async function makeFolders(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (!first || !forToolUser()) return;
  for (let d = dir; ; d = dirname(d)) {
    await chmod(d, 0o777);
    if (d === first || d === dirname(d)) break;
  }
}

function obj(input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new Error('the tool input must be a JSON object');
  return input as Record<string, unknown>;
}

function str(input: Record<string, unknown>, key: string): string {
  const v = input[key];
  if (typeof v !== 'string') throw new Error(`'${key}' must be a string`);
  return v;
}

/** The file tools every worker gets: list, read, write and edit, all inside the path jail. */
export function workspaceTools(jail: PathJail, onWrite: (path: string) => void): AgentTool[] {
  return [listFilesTool(jail), readFileTool(jail), writeFileTool(jail, onWrite), editFileTool(jail, onWrite)].map(bounded);
}

/** list_files: the paths under a folder, sorted, within a count and a size. */
function listFilesTool(jail: PathJail): AgentTool {
  return {
    spec: {
      name: 'list_files',
      description: `List the files under a folder of the repository, recursively, one path a line (from the repository root, sorted), skipping .git and node_modules. Use it to find your way around; use search to find files by their contents. Stops at ${MAX_LIST} files or ${thousands(MAX_LIST_BYTES)} bytes and says so: then list a sub-folder.`,
      input_schema: {
        type: 'object',
        properties: { path: { type: 'string', description: "Folder relative to the repository root; '.' (the default) for all" } },
      },
    },
    async run(input) {
      const i = obj(input ?? {});
      const dir = jail.forRead(i.path ?? '.');
      const out: string[] = [];
      let bytes = 0;
      let full = false;
      const walk = async (d: string): Promise<void> => {
        for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
          if (full || out.length >= MAX_LIST) return;
          if (e.name === '.git' || e.name === 'node_modules') continue;
          const at = join(d, e.name);
          if (e.isDirectory()) await walk(at);
          else {
            const path = relative(jail.rootDir, at);
            if (bytes + Buffer.byteLength(path) + 1 > MAX_LIST_BYTES) full = true;
            else (out.push(path), (bytes += Buffer.byteLength(path) + 1));
          }
        }
      };
      const s = await stat(dir).catch(() => undefined);
      if (!s) throw new Error(`'${String(i.path ?? '.')}' does not exist`);
      if (!s.isDirectory()) return relative(jail.rootDir, dir);
      await walk(dir);
      return full || out.length >= MAX_LIST
        ? `${out.join('\n')}\n(listing stopped at ${out.length} files, the limit of ${MAX_LIST} files or ${thousands(MAX_LIST_BYTES)} bytes; list a sub-folder)`
        : out.join('\n') || '(empty folder)';
    },
  };
}

/** read_file: a numbered window of a text file, with an outline of a large source file. */
function readFileTool(jail: PathJail): AgentTool {
  return {
    spec: {
      name: 'read_file',
      description: [
        'Read a text file of the repository. Returns a header "<path>: lines a-b of N" and the lines, each numbered (the number, a tab, the line); the numbers are the file\'s own, 1-based, as `path:line` citations count them.',
        `A window holds at most ${thousands(WINDOW_LINES)} lines or ${thousands(WINDOW_BYTES)} bytes, whichever comes first; the header says where to start_line next to read on. Lines over ${thousands(LINE_CHARS)} characters are cut, with a note.`,
        'The first read of a source file too large for one window (TypeScript/JavaScript, Python, Go, Rust, Ruby, Java/Kotlin/C#; Markdown by its headings) also shows an outline of its definitions with their line numbers: page to the part you need with start_line and limit.',
        'Use it to read before you edit, and to see the lines a search found (start_line a little above them).',
      ].join(' '),
      input_schema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path relative to the repository root.' },
          start_line: { type: 'integer', minimum: 1, description: 'First line to show (1-based); 1 by default.' },
          limit: { type: 'integer', minimum: 1, description: `How many lines to show; ${thousands(WINDOW_LINES)} (the most) by default.` },
          end_line: { type: 'integer', minimum: 1, description: 'Last line to show (inclusive), instead of limit.' },
        },
        required: ['path'],
      },
    },
    async run(input) {
      const i = obj(input);
      const path = str(i, 'path');
      const file = jail.forRead(path);
      const s = await stat(file).catch(() => undefined);
      if (!s) throw new Error(`'${path}' does not exist`);
      if (s.isDirectory()) throw new Error(`'${path}' is a folder; use list_files`);
      const start = optionalLine(i, 'start_line');
      const end = optionalLine(i, 'end_line');
      const limit = optionalLine(i, 'limit');
      if (s.size > MAX_FILE_BYTES)
        throw new Error(
          `'${path}' is ${thousands(s.size)} bytes, over the ${thousands(MAX_FILE_BYTES)} read_file reads; look at parts of it with run_command (grep -n, sed -n 'A,Bp')`,
        );
      const buf = await readBytes(file);
      if (buf.subarray(0, 8000).includes(0)) return `${path} is a binary file (${thousands(buf.length)} bytes); read_file shows text files only`;
      if (end !== undefined && end < (start ?? 1)) throw new Error(`end_line ${end} is before start_line ${start ?? 1}`);
      const count = limit ?? (end !== undefined ? end - (start ?? 1) + 1 : undefined);
      return fileWindow(relative(jail.rootDir, file), buf.toString('utf8'), {
        ...(start !== undefined ? { start } : {}),
        ...(count !== undefined ? { limit: count } : {}),
      });
    },
  };
}

/** write_file: a new or replaced file, with a syntax check of what it brought. */
function writeFileTool(jail: PathJail, onWrite: (path: string) => void): AgentTool {
  return {
    spec: {
      name: 'write_file',
      description:
        'Create a file, or replace a whole file, with the given content; folders are made as needed. Use it for new files; change an existing file with edit_file, which keeps the rest of it. Returns the number of lines written, and for JavaScript, TypeScript, Python, JSON and YAML a syntax error the new content brought (one the file had before is not reported).',
      input_schema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path relative to the repository root.' },
          content: { type: 'string', description: 'The whole new content.' },
        },
        required: ['path', 'content'],
      },
    },
    async run(input) {
      const i = obj(input);
      const file = jail.forWrite(str(i, 'path'));
      const content = str(i, 'content');
      const before = await readText(file).catch(() => undefined);
      await makeFolders(dirname(file));
      await writeText(file, content);
      const path = relative(jail.rootDir, file);
      onWrite(path);
      return `wrote ${path} (${lineCount(linesOf(content).length)})${await syntaxNote(path, before, content)}`;
    },
  };
}

/** edit_file: one (or every) occurrence replaced, answered with the changed lines or the nearest match. */
function editFileTool(jail: PathJail, onWrite: (path: string) => void): AgentTool {
  return {
    spec: {
      name: 'edit_file',
      description: [
        'Change an existing file: replace old_string, which must occur exactly once (white space included), with new_string; or every occurrence with replace_all. Use it for every change to a file that exists; write_file is for new files.',
        'Copy old_string from what read_file showed, without the line numbers, with enough lines around the change to be unique.',
        'Returns the changed lines, numbered, with 3 lines around them. When old_string is not found, the answer shows the nearest text in the file (the same text spaced differently, or the most similar lines) with its line numbers; when it occurs more than once, the line of each.',
        'For JavaScript, TypeScript, Python, JSON and YAML files the answer also says whether the edit broke the syntax (only errors the edit brought; the edit is kept, so fix it with another edit).',
      ].join(' '),
      input_schema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path relative to the repository root.' },
          old_string: { type: 'string', description: 'The exact text to replace.' },
          new_string: { type: 'string', description: 'The text to put in its place.' },
          replace_all: { type: 'boolean', description: 'Replace every occurrence of old_string (default false: it must occur once).' },
        },
        required: ['path', 'old_string', 'new_string'],
      },
    },
    async run(input) {
      const i = obj(input);
      const file = jail.forWrite(str(i, 'path'));
      const oldString = str(i, 'old_string');
      const newString = str(i, 'new_string');
      if (i.replace_all !== undefined && typeof i.replace_all !== 'boolean') throw new Error("'replace_all' must be true or false");
      if (oldString === '') throw new Error('old_string is empty; use write_file to create a file');
      const text = await readText(file).catch((e: NodeJS.ErrnoException) => {
        throw e.code === 'ENOENT' ? new Error(`'${str(i, 'path')}' does not exist; use write_file to create it`) : e;
      });
      const path = relative(jail.rootDir, file);
      const at = occurrences(text, oldString);
      if (at.length === 0) throw new Error(nearestMatch(path, text, oldString));
      if (at.length > 1 && i.replace_all !== true) throw new Error(severalMatches(path, text, at));
      if (oldString === newString) throw new Error('old_string and new_string are the same; nothing to change');
      const edited = applyAt(text, at, oldString, newString);
      await writeText(file, edited);
      onWrite(path);
      const what = at.length === 1 ? 'replaced 1 occurrence' : `replaced all ${at.length} occurrences`;
      return `edited ${path}: ${what}; it has ${lineCount(linesOf(edited).length)} now. The changed lines:\n${changedRegions(text, at, oldString, newString)}${await syntaxNote(path, text, edited)}`;
    },
  };
}

/** An optional positive line number of the input, or a message naming the field. */
function optionalLine(input: Record<string, unknown>, key: string): number | undefined {
  const v = input[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new Error(`'${key}' must be a whole number from 1`);
  return v;
}

async function readBytes(file: string): Promise<Buffer> {
  const fh = await openNoFollow(file, constants.O_RDONLY);
  try {
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/**
 * The syntax check after a write: a note when the new text does not parse and the old one did
 * (or there was none), so only errors the change brought are told; '' otherwise.
 */
async function syntaxNote(path: string, before: string | undefined, after: string): Promise<string> {
  const check = syntaxCheckFor(path);
  if (!check) return '';
  const now = await check.check(after);
  if (!now || now.ok) return '';
  const was = before === undefined ? undefined : await check.check(before);
  if (was && !was.ok) return '';
  const message = now.message.split('\n')[0]!.slice(0, 300);
  const at = now.line ? `line ${now.line}: ` : '';
  const shown = now.line ? `\n${numbered(linesOf(after), now.line - 1, now.line + 1).join('\n')}` : '';
  return `\n\nSyntax check (${check.language}): the file no longer parses after this change: ${at}${message}${shown}\nThe change was kept; fix it with another edit.`;
}

/** "1 line", "12 lines". */
function lineCount(n: number): string {
  return `${n} ${n === 1 ? 'line' : 'lines'}`;
}
