import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { searchTool } from '../../../src/agents/command-tools';
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
    expect(await tool().run({ pattern: 'parse' })).toBe('a.js:2:function parse() {}\nb.md:1:parse the input\n');
    expect(await tool().run({ pattern: 'answer = [0-9]+', path: 'a.js' })).toBe('a.js:1:const answer = 42;\n');
    expect(await tool().run({ pattern: 'nowhere' })).toBe('no matches');
  });

  it('never lets the pattern or the path become a git option', async () => {
    const pwn = join(repo, 'pwned');
    expect(await tool().run({ pattern: `--open-files-in-pager=touch ${pwn}` })).toBe('no matches');
    await expect(Promise.resolve(tool().run({ pattern: 'x', path: `--output=${pwn}` }))).resolves.toBe('no matches');
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
