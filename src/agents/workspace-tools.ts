import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { AgentTool } from './tool-loop';
import type { PathJail } from './path-jail';

const MAX_READ_BYTES = 200_000;
const MAX_LIST = 500;

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

async function readText(file: string): Promise<string> {
  const fh = await openNoFollow(file, constants.O_RDONLY);
  try {
    return await fh.readFile('utf8');
  } finally {
    await fh.close();
  }
}

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
  return [
    {
      spec: {
        name: 'list_files',
        description: 'List files under a folder of the repository (recursively), skipping .git.',
        input_schema: { type: 'object', properties: { path: { type: 'string', description: "Folder relative to the repository root; '.' for all" } } },
      },
      async run(input) {
        const i = obj(input ?? {});
        const dir = jail.forRead(i.path ?? '.');
        const out: string[] = [];
        const walk = async (d: string): Promise<void> => {
          for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
            if (out.length >= MAX_LIST) return;
            if (e.name === '.git' || e.name === 'node_modules') continue;
            const full = join(d, e.name);
            if (e.isDirectory()) await walk(full);
            else out.push(relative(jail.rootDir, full));
          }
        };
        const s = await stat(dir).catch(() => undefined);
        if (!s) throw new Error(`'${String(i.path ?? '.')}' does not exist`);
        if (!s.isDirectory()) return relative(jail.rootDir, dir);
        await walk(dir);
        return out.length >= MAX_LIST ? `${out.join('\n')}\n(listing stopped at ${MAX_LIST} files; list a sub-folder)` : out.join('\n') || '(empty folder)';
      },
    },
    {
      spec: {
        name: 'read_file',
        description: 'Read a text file. Optionally only lines start_line..end_line (1-based, inclusive).',
        input_schema: {
          type: 'object',
          properties: { path: { type: 'string' }, start_line: { type: 'integer', minimum: 1 }, end_line: { type: 'integer', minimum: 1 } },
          required: ['path'],
        },
      },
      async run(input) {
        const i = obj(input);
        const file = jail.forRead(str(i, 'path'));
        const s = await stat(file).catch(() => undefined);
        if (!s) throw new Error(`'${str(i, 'path')}' does not exist`);
        if (s.isDirectory()) throw new Error(`'${str(i, 'path')}' is a folder; use list_files`);
        if (s.size > MAX_READ_BYTES && i.start_line === undefined)
          throw new Error(`'${str(i, 'path')}' is ${s.size} bytes; read it in parts with start_line and end_line`);
        const lines = (await readText(file)).split('\n');
        const start = typeof i.start_line === 'number' ? i.start_line : 1;
        const end = typeof i.end_line === 'number' ? Math.min(i.end_line, lines.length) : lines.length;
        if (start > lines.length) throw new Error(`the file has only ${lines.length} lines`);
        return lines.slice(start - 1, end).join('\n');
      },
    },
    {
      spec: {
        name: 'write_file',
        description: 'Create a file, or replace a file entirely, with the given content. Creates folders as needed.',
        input_schema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
      },
      async run(input) {
        const i = obj(input);
        const file = jail.forWrite(str(i, 'path'));
        const content = str(i, 'content');
        await makeFolders(dirname(file));
        await writeText(file, content);
        onWrite(relative(jail.rootDir, file));
        return `wrote ${relative(jail.rootDir, file)} (${content.split('\n').length} lines)`;
      },
    },
    {
      spec: {
        name: 'edit_file',
        description: 'Replace one exact occurrence of old_string with new_string in a file. old_string must match exactly once, whitespace included.',
        input_schema: {
          type: 'object',
          properties: { path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } },
          required: ['path', 'old_string', 'new_string'],
        },
      },
      async run(input) {
        const i = obj(input);
        const file = jail.forWrite(str(i, 'path'));
        const oldString = str(i, 'old_string');
        const newString = str(i, 'new_string');
        if (oldString === '') throw new Error('old_string is empty; use write_file to create a file');
        const text = await readText(file).catch((e: NodeJS.ErrnoException) => {
          throw e.code === 'ENOENT' ? new Error(`'${str(i, 'path')}' does not exist; use write_file to create it`) : e;
        });
        const count = text.split(oldString).length - 1;
        if (count === 0) throw new Error(`old_string was not found in ${str(i, 'path')}; read the file and copy the text exactly`);
        if (count > 1) throw new Error(`old_string occurs ${count} times in ${str(i, 'path')}; include more surrounding text so it matches once`);
        await writeText(
          file,
          text.replace(oldString, () => newString),
        );
        onWrite(relative(jail.rootDir, file));
        return `edited ${relative(jail.rootDir, file)}`;
      },
    },
  ];
}
