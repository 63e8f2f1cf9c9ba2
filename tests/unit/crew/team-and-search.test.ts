import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { posixEscapes, searchTool } from '../../../src/agents/command-tools';
import { PathJail } from '../../../src/agents/path-jail';
import { teamTools, type Team } from '../../../src/agents/team-tools';
import type { TeamMessage } from '../../../src/state/inbox';

describe('search', () => {
  let repo: string;
  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'search-'));
    execFileSync('git', ['init', '-q', repo]);
    writeFileSync(join(repo, 'a.js'), 'const answer = 42;\nfunction parse() {}\n');
    writeFileSync(join(repo, 'b.md'), 'parse the input\n');
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));
  const tool = () => searchTool(new PathJail(repo), 10_000);

  it('finds lines in tracked and untracked files', async () => {
    expect(await tool().run({ pattern: 'parse' })).toBe('2 matching lines in 2 files for /parse/:\na.js:2:function parse() {}\nb.md:1:parse the input');
    expect(await tool().run({ pattern: 'answer = [0-9]+', path: 'a.js' })).toBe(
      '1 matching line in 1 file for /answer = [0-9]+/ in a.js:\na.js:1:const answer = 42;',
    );
    expect(await tool().run({ pattern: 'nowhere' })).toBe('no matches for /nowhere/');
  });

  it('reads the regex people write: \\d, \\w and \\b (git grep -E found nothing for them)', async () => {
    writeFileSync(join(repo, 'limits.ts'), 'export const MAX_READ_BYTES = 200_000;\nconst MAX_LIST = 500;\nconst maxOther = 1;\n');
    expect(await tool().run({ pattern: String.raw`MAX_\w+ = \d+` })).toBe(
      '2 matching lines in 1 file for /MAX_\\w+ = \\d+/:\nlimits.ts:1:export const MAX_READ_BYTES = 200_000;\nlimits.ts:2:const MAX_LIST = 500;',
    );
    expect(await tool().run({ pattern: String.raw`\bparse\b`, glob: '*.md' })).toBe(
      '1 matching line in 1 file for /\\bparse\\b/ (files matching *.md):\nb.md:1:parse the input',
    );
    expect(await tool().run({ pattern: 'max_list', case_insensitive: true })).toBe(
      '1 matching line in 1 file for /max_list/i:\nlimits.ts:2:const MAX_LIST = 500;',
    );
    await expect(Promise.resolve(tool().run({ pattern: '(' }))).rejects.toThrow(/search failed: .*missing closing parenthesis/);
    await expect(Promise.resolve(tool().run({ pattern: 'x', mode: 'count' }))).rejects.toThrow(/'mode' must be "lines" or "files"/);
  });

  it('where git has no PCRE, the escapes people write most are spelled out for -E, and still find the line', () => {
    writeFileSync(join(repo, 'limits.ts'), 'export const MAX_READ_BYTES = 200_000;\nconst MAX_LIST = 500;\n');
    expect(posixEscapes(String.raw`MAX_\w+ = \d+\s*\S\D\W`)).toBe('MAX_[[:alnum:]_]+ = [0-9]+[[:space:]]*[^[:space:]][^0-9][^[:alnum:]_]');
    const found = execFileSync('git', ['grep', '--untracked', '-n', '-E', '-e', posixEscapes(String.raw`MAX_\w+ = \d+`)], { cwd: repo, encoding: 'utf8' });
    expect(found).toBe('limits.ts:1:export const MAX_READ_BYTES = 200_000;\nlimits.ts:2:const MAX_LIST = 500;\n');
  });

  it('a pattern with thousands of hits gives the totals, the first lines, and how many more in how many files', async () => {
    mkdirSync(join(repo, 'gen'));
    for (let f = 0; f < 30; f++)
      writeFileSync(join(repo, 'gen', `f${String(f).padStart(2, '0')}.txt`), Array.from({ length: 250 }, (_, i) => `hit ${i}`).join('\n'));
    writeFileSync(join(repo, 'gen', 'long.txt'), `hit ${'x'.repeat(5000)}\n`);
    const out = String(await tool().run({ pattern: 'hit', path: 'gen' }));
    expect(out.split('\n')[0]).toBe('7,501 matching lines in 31 files for /hit/ in gen; the first 100 shown:');
    expect(out).toContain('gen/f00.txt:100:hit 99');
    expect(out).not.toContain('gen/f00.txt:101:');
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      '… 7,401 more matching lines not shown (30 files with none shown). Narrow the search with path or glob, or use mode "files" to see every file with its count.',
    );
    const files = String(await tool().run({ pattern: 'hit', path: 'gen', mode: 'files' }));
    expect(files.split('\n').slice(0, 3)).toEqual([
      '7,501 matching lines in 31 files for /hit/ in gen; files by matches:',
      'gen/f00.txt: 250',
      'gen/f01.txt: 250',
    ]);
    expect(files.split('\n').at(-1)).toBe('gen/long.txt: 1');
    // A long line is cut, with its length.
    const long = String(await tool().run({ pattern: 'hit x', path: 'gen' }));
    expect(long).toContain('… [line cut at 300 of 5,004 characters]');
    expect(Buffer.byteLength(long)).toBeLessThan(1000);
  });

  it('never lets the pattern or the path become a git option', async () => {
    const pwn = join(repo, 'pwned');
    expect(await tool().run({ pattern: `--open-files-in-pager=touch ${pwn}` })).toMatch(/^no matches for /);
    await expect(Promise.resolve(tool().run({ pattern: 'x', path: `--output=${pwn}` }))).resolves.toMatch(/^no matches for /);
    await expect(Promise.resolve(tool().run({ pattern: 'x', path: '../../etc' }))).rejects.toThrow(/outside the repository/);
    expect(existsSync(pwn)).toBe(false);
  });
});

describe('send_message and check_inbox', () => {
  const sent: Array<[string, string]> = [];
  let inbox: TeamMessage[] = [];
  const team: Team = { running: async () => ['t2', 't3'], send: async (to, text) => void sent.push([to, text]), inbox: async () => inbox };
  const tools = (delivered = new Set<string>()) => new Map(teamTools('t1', team, delivered).map((t) => [t.spec.name, t]));
  const msg = (id: string, text: string): TeamMessage => ({ id, from: 't2', to: 't1', type: 'message', text, at: '' });

  it('sends to one running task or to all of them, and refuses the rest', async () => {
    sent.length = 0;
    const t = tools();
    expect(await t.get('send_message')!.run({ to: 't2', text: 'hi' })).toBe('sent to t2');
    expect(await t.get('send_message')!.run({ to: 'all', text: 'everyone' })).toBe('sent to t2, t3');
    await expect(Promise.resolve(t.get('send_message')!.run({ to: 't9', text: 'x' }))).rejects.toThrow(/'t9' is not running now \(running: t2, t3\)/);
    await expect(Promise.resolve(t.get('send_message')!.run({ to: 't1', text: 'x' }))).rejects.toThrow(/cannot message yourself/);
    await expect(Promise.resolve(t.get('send_message')!.run({ to: 't2', text: '' }))).rejects.toThrow(/non-empty 'text'/);
    expect(sent).toEqual([
      ['t2', 'hi'],
      ['all', 'everyone'],
    ]);
  });

  it('check_inbox shows each message once, and never removes any', async () => {
    const delivered = new Set<string>();
    const t = tools(delivered);
    inbox = [msg('1', 'first')];
    expect(await t.get('check_inbox')!.run({})).toBe('from t2 (message): first');
    inbox = [msg('1', 'first'), msg('2', 'second')];
    expect(await t.get('check_inbox')!.run({})).toBe('from t2 (message): second');
    expect(await t.get('check_inbox')!.run({})).toBe('no new messages');
    expect(inbox).toHaveLength(2);
  });
});
