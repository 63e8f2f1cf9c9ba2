import { spawn } from 'node:child_process';
import { checkCommand, type CommandPolicy } from '../domain/command-policy';
import { HARDENING } from '../domain/git-hardening';
import type { ModelReach } from '../domain/reach-note';
import { globMatch } from '../domain/glob';
import { LINE_CHARS, SearchTally, SHOWN_FILES, SHOWN_LINES, type SearchMode } from '../domain/search-results';
import type { CommandRunner } from '../sandbox/command-runner';
import { bounded } from './bounded-tool';
import type { PathJail } from './path-jail';
import type { AgentTool } from './tool-loop';
import { ownGit, ownPath } from '../sandbox/own-programs';

export interface CommandToolOptions {
  runner: CommandRunner | undefined;
  /** Why commands cannot run, when there is no runner. */
  unavailable?: string;
  policy: CommandPolicy;
  timeoutMs: number;
  maxOutputBytes: number;
  /** `allowlist`: commands reach the allowed hosts through crew's proxy (network.tools); otherwise they have no network. */
  network?: 'allowlist';
  /** What the commands get of the runner's variables and services, told up front, and the line for a failed command that points there (#51). */
  reach?: ModelReach;
  /** No command runs past this time (epoch ms): the job's limit is near. */
  until?: number;
  now?: () => number;
}

/** How much output run_command keeps, and how to see what it cut: told to the model in the description and with every cut. */
const NARROWING =
  "run the command again with a filter in the same call: `… 2>&1 | grep -n -E 'FAIL|Error'`, `… 2>&1 | tail -n 200`, `… 2>&1 | sed -n '2000,2100p'`, or `… > /tmp/out.log 2>&1; grep -n PATTERN /tmp/out.log`";

const thousands = (x: number) => x.toLocaleString('en-US');

/** run_command: a shell command in the checkout, through the policy and the sandbox. */
export function runCommandTool(jail: PathJail, o: CommandToolOptions): AgentTool {
  const seconds = Math.round(o.timeoutMs / 1000);
  return bounded({
    spec: {
      name: 'run_command',
      description: [
        `Run a shell command (bash) in the repository root and get back its exit code and its output (stdout and stderr together).`,
        `Use it to reproduce a problem, run the tests, linters and builds, and for what the file tools do not do (git log, git diff, find).`,
        `Prefer read_file, search and edit_file for reading, searching and changing files.`,
        `Network: ${o.network === 'allowlist' ? "only the repository's allowed hosts, through the proxy in HTTP_PROXY/HTTPS_PROXY; others are refused" : 'none'}.`,
        ...(o.reach && o.runner ? [o.reach.told(o.runner.sandboxed)] : []),
        `Limits: killed after ${seconds} s. Output over ${thousands(o.maxOutputBytes)} bytes keeps its first third and its last two thirds, with a note saying exactly how many lines were cut from the middle, so the end (failures, totals) always arrives. To see a part that was cut, ${NARROWING}.`,
        `Each call is a fresh shell: cd and variables do not carry over, and in the sandbox neither does /tmp (each call gets an empty one); files changed in the checkout do, so keep what a later call needs there.`,
      ].join(' '),
      input_schema: {
        type: 'object',
        properties: { command: { type: 'string', description: 'The command line, run by bash in the repository root.' } },
        required: ['command'],
      },
    },
    async run(input, facts) {
      const command = (input as { command?: unknown })?.command;
      if (typeof command !== 'string') throw new Error("'command' must be a string");
      if (!o.runner) throw new Error(`run_command is not available in this run: ${o.unavailable ?? 'no sandbox'}`);
      const verdict = checkCommand(command, o.policy);
      if (!verdict.ok) throw new Error(`refused: ${verdict.reason}`);
      const left = o.until === undefined ? Infinity : o.until - (o.now ?? Date.now)();
      if (left <= 0) throw new Error("refused: this job's time is up; crew is saving the work so far");
      const timeoutMs = Math.min(o.timeoutMs, left);
      const r = await o.runner.run(command, { cwd: jail.rootDir, timeoutMs, maxOutputBytes: o.maxOutputBytes });
      if (facts) Object.assign(facts, r.timedOut ? { exitCode: null, timedOut: true } : { exitCode: r.exitCode });
      const head = r.timedOut
        ? `timed out after ${Math.round(timeoutMs / 1000)} s (killed)${timeoutMs < o.timeoutMs ? " at the job's time limit" : ''}`
        : `exit code ${r.exitCode}`;
      const cut = !r.truncated
        ? ''
        : r.size
          ? `; the output had ${thousands(r.size.lines)} lines (${thousands(r.size.bytes)} bytes), over the ${thousands(o.maxOutputBytes)} kept, so its middle was cut (the note below says how much). To see the middle, ${NARROWING}`
          : ` (output cut; to see all of it, ${NARROWING})`;
      // The line about the runner's variables and services comes last, after the output's kept end.
      const note = r.exitCode !== 0 || r.timedOut ? o.reach?.note(r.output, o.runner.sandboxed) : null;
      return `${head}${cut}\n${r.output}${note ? `${r.output.endsWith('\n') ? '' : '\n'}${note}` : ''}`;
    },
  });
}

const SEARCH_SECONDS = 60;

/** The search tool's options, as the model passes them. */
interface SearchInput {
  pattern: string;
  path: string;
  glob?: string;
  caseInsensitive: boolean;
  mode: SearchMode;
}

function searchInput(input: unknown): SearchInput {
  const i = (input ?? {}) as Record<string, unknown>;
  if (typeof i.pattern !== 'string' || !i.pattern) throw new Error("'pattern' must be a non-empty string");
  if (i.glob !== undefined && (typeof i.glob !== 'string' || !i.glob))
    throw new Error('\'glob\' must be a non-empty string, such as "*.ts" or "src/**/*.test.js"');
  if (i.case_insensitive !== undefined && typeof i.case_insensitive !== 'boolean') throw new Error("'case_insensitive' must be true or false");
  if (i.mode !== undefined && i.mode !== 'lines' && i.mode !== 'files') throw new Error('\'mode\' must be "lines" or "files"');
  return {
    pattern: i.pattern,
    path: i.path === undefined ? '.' : (i.path as string),
    ...(typeof i.glob === 'string' ? { glob: i.glob } : {}),
    caseInsensitive: i.case_insensitive === true,
    mode: (i.mode as SearchMode | undefined) ?? 'lines',
  };
}

/** A glob without a slash matches file names in any folder; with one, paths from the repository root. */
function globFilter(glob: string | undefined): (path: string) => boolean {
  if (glob === undefined) return () => true;
  return glob.includes('/') ? (p) => globMatch(glob, p) : (p) => globMatch(glob, p.slice(p.lastIndexOf('/') + 1));
}

/** git without PCRE (USE_LIBPCRE) knows POSIX classes only: the few escapes people write most, spelled for -E. */
export const posixEscapes = (pattern: string) =>
  pattern.replace(
    /\\([dDsSwW])/g,
    (_, c: string) => ({ d: '[0-9]', D: '[^0-9]', s: '[[:space:]]', S: '[^[:space:]]', w: '[[:alnum:]_]', W: '[^[:alnum:]_]' })[c]!,
  );

/**
 * One `git grep` run, streamed into the tally: every match counted, the first ones kept. The
 * pattern stays after -e and the path after --, read as literal paths, so neither becomes an
 * option or pathspec magic. Resolves with git's exit code and error text.
 */
function grep(
  jail: PathJail,
  args: string[],
  where: string,
  take: (path: string, line: number, text: string) => void,
): Promise<{ code: number | null; stderr: string; stopped: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(
      ownGit(),
      [
        ...HARDENING.flatMap(([k, v]) => ['-c', `${k}=${v}`]),
        '--literal-pathspecs',
        'grep',
        '--untracked',
        '--no-color',
        '-z',
        '-n',
        '-I',
        ...args,
        '--',
        where,
      ],
      { cwd: jail.rootDir, env: { PATH: ownPath(), HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stopped = false;
    const timer = setTimeout(() => {
      stopped = true;
      child.kill('SIGKILL');
    }, SEARCH_SECONDS * 1000);
    let rest = Buffer.alloc(0);
    child.stdout.on('data', (d: Buffer) => {
      let buf = rest.length ? Buffer.concat([rest, d]) : d;
      for (let end = buf.indexOf(0x0a); end >= 0; end = buf.indexOf(0x0a)) {
        const record = buf.subarray(0, end);
        buf = buf.subarray(end + 1);
        // path NUL line NUL text
        const a = record.indexOf(0);
        const b = record.indexOf(0, a + 1);
        if (a < 0 || b < 0) continue;
        take(record.subarray(0, a).toString('utf8'), Number(record.subarray(a + 1, b).toString()), record.subarray(b + 1).toString('utf8'));
      }
      rest = Buffer.from(buf);
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => void (stderr.length < 4000 && (stderr += d.toString())));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stopped });
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: e.message, stopped });
    });
  });
}

/** search: `git grep -P` over tracked and untracked files, every match counted; the pattern and path never become git options. */
export function searchTool(jail: PathJail, maxOutputBytes: number): AgentTool {
  return bounded({
    spec: {
      name: 'search',
      description: [
        'Search the contents of the repository’s files (tracked and untracked, not ignored ones; binary files skipped) for a regular expression, line by line.',
        'The syntax is JavaScript’s (Perl-compatible): \\d, \\w, \\s, \\b, (?:…), lookarounds; escape ( ) [ ] { } . * + ? | \\ to match them literally.',
        'Use it to find where something is defined or used before reading or changing it; then read_file at the line it gives.',
        `Returns a line of totals (matching lines and files), then path:line:text for the first ${SHOWN_LINES} matching lines (each cut at ${LINE_CHARS} characters), and how many more there are in how many files.`,
        `mode "files" returns every matching file with its count instead (most first, up to ${SHOWN_FILES}).`,
        `Narrow it with path (a folder or file), glob (file names such as "*.py", or paths with a slash such as "src/**/*.test.ts") and case_insensitive. Stops after ${SEARCH_SECONDS} s and says so.`,
      ].join(' '),
      input_schema: {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: 'A regular expression, JavaScript syntax, matched against each line.' },
          path: { type: 'string', description: 'Folder or file to search, relative to the repository root; the whole repository by default.' },
          glob: { type: 'string', description: 'Only files matching this glob: "*.ts" matches file names anywhere, "src/**/*.ts" paths from the root.' },
          case_insensitive: { type: 'boolean', description: 'Match upper and lower case alike (default false).' },
          mode: {
            type: 'string',
            enum: ['lines', 'files'],
            description: '"lines" (default): the matching lines; "files": each matching file with its number of matching lines.',
          },
        },
        required: ['pattern'],
      },
    },
    async run(input) {
      const i = searchInput(input);
      const where = jail.relative(i.path);
      const keep = globFilter(i.glob);
      const what = `/${i.pattern}/${i.caseInsensitive ? 'i' : ''}${where === '.' ? '' : ` in ${where}`}${i.glob ? ` (files matching ${i.glob})` : ''}`;
      const run = async (args: string[]) => {
        const tally = new SearchTally(i.mode, maxOutputBytes);
        const r = await grep(jail, [...(i.caseInsensitive ? ['-i'] : []), ...args], where, (path, line, text) => keep(path) && tally.add(path, line, text));
        return { tally, ...r };
      };
      let r = await run(['-P', '-e', i.pattern]);
      let note = '';
      if (r.code !== 0 && r.code !== 1 && /USE_LIBPCRE/.test(r.stderr)) {
        // This git was built without PCRE: POSIX extended syntax, with \d and the like spelled out.
        r = await run(['-E', '-e', posixEscapes(i.pattern)]);
        note =
          '\n(this git has no Perl-compatible regular expressions: the pattern was read as POSIX extended, with \\d, \\w and \\s spelled out; lookarounds and \\b may not work)';
      }
      if (!r.stopped && r.code !== 0 && r.code !== 1) throw new Error(`search failed: ${r.stderr.trim() || `git grep exited with ${r.code}`}`);
      return r.tally.render(what, r.stopped ? `stopped after ${SEARCH_SECONDS} s` : undefined) + note;
    },
  });
}
