import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommandTool, searchTool } from '../../../src/agents/command-tools';
import { PathJail } from '../../../src/agents/path-jail';
import { teamTools } from '../../../src/agents/team-tools';
import type { AgentTool } from '../../../src/agents/tool-loop';
import { workspaceTools } from '../../../src/agents/workspace-tools';
import { citationProblem, citationsIn } from '../../../src/domain/citations';
import { keepEnds, OutputKeeper } from '../../../src/domain/kept-output';
import { UnsandboxedRunner } from '../../../src/sandbox/command-runner';

/** No tool result the model gets is larger than this (#48). */
const RESULT_LIMIT = 60_000;

/** 4,000 passing test lines, then the failure and the totals: what a long test run prints. */
const testRun = () => [
  ...Array.from({ length: 4000 }, (_, i) => `ok ${i + 1} - parses case number ${i + 1}`),
  'not ok 4001 - FAILED slugify keeps dashes',
  '# tests 4001',
  '# pass 4000',
  '# fail 1',
];

describe('output that keeps its end (#48)', () => {
  it('keeps the head and the tail of the whole stream, and counts exactly what it cut', () => {
    const keeper = new OutputKeeper(30_000);
    const lines = testRun();
    // In chunks of every size, as a pipe delivers them.
    const all = `${lines.join('\n')}\n`;
    for (let at = 0, size = 1; at < all.length; at += size, size = (size * 7) % 9000 || 1) keeper.push(all.slice(at, at + size));
    const kept = keeper.result();
    expect(kept.bytes).toBe(Buffer.byteLength(all));
    expect(kept.lines).toBe(4004);
    expect(kept.text).toContain('not ok 4001 - FAILED slugify keeps dashes');
    expect(kept.text.trimEnd().split('\n').slice(-3)).toEqual(['# tests 4001', '# pass 4000', '# fail 1']);
    expect(kept.text.startsWith('ok 1 - parses case number 1\n')).toBe(true);
    const shown = kept.text.split('\n').filter((l) => l.startsWith('ok ') || l.startsWith('not ok') || l.startsWith('#'));
    expect(shown.length + kept.cut!.lines).toBe(4004);
    expect(Buffer.byteLength(kept.text)).toBeLessThan(31_000);
    expect(kept.text).toMatch(
      new RegExp(
        `…\\[${kept.cut!.lines.toLocaleString('en-US')} lines \\(${kept.cut!.bytes.toLocaleString('en-US')} bytes\\) cut from the middle: the output had 4,004 lines`,
      ),
    );
    // Nothing is cut from output that fits.
    expect(keepEnds('a\nb\n', 100)).toEqual({ text: 'a\nb\n', bytes: 4, lines: 2 });
  });

  it('run_command: the failing test and the totals at the end of 4,000 passing lines reach the model, with how to narrow', async () => {
    const root = mkdtempSync(join(tmpdir(), 'run-tail-'));
    try {
      writeFileSync(join(root, 'out.txt'), `${testRun().join('\n')}\n`);
      const tool = runCommandTool(new PathJail(root), {
        runner: new UnsandboxedRunner(root),
        policy: { allow: [], deny: [] },
        timeoutMs: 20_000,
        maxOutputBytes: 30_000,
      });
      const out = String(await tool.run({ command: 'cat out.txt; exit 1' }));
      expect(out.split('\n')[0]).toMatch(/^exit code 1; the output had 4,004 lines \(\d{3},\d{3} bytes\), over the 30,000 kept, so its middle was cut/);
      expect(out.split('\n')[0]).toContain('| grep -n');
      expect(out).toContain('not ok 4001 - FAILED slugify keeps dashes');
      expect(out).toContain('# fail 1');
      expect(Buffer.byteLength(out)).toBeLessThan(RESULT_LIMIT);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('file tools that answer (#48)', () => {
  let root: string;
  let tools: Map<string, AgentTool>;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'answers-'));
    mkdirSync(join(root, 'src'));
    tools = new Map(workspaceTools(new PathJail(root), () => undefined).map((t) => [t.spec.name, t]));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const run = (name: string, input: unknown) => Promise.resolve(tools.get(name)!.run(input)).then(String);
  const fail = (name: string, input: unknown) =>
    run(name, input).then(
      (ok) => {
        throw new Error(`expected ${name} to fail, it answered ${ok}`);
      },
      (e: Error) => e.message,
    );

  /** A 3,000-line TypeScript module: a function every 100 lines, a constant in the middle. */
  const big = () =>
    Array.from({ length: 3000 }, (_, i) =>
      i === 1499
        ? 'export const MAX_WINDOW = 1500;'
        : i % 100 === 0
          ? `export function part${i / 100}(x: number): number {`
          : `  const v${i} = x + ${i}; // line ${i + 1}`,
    ).join('\n') + '\n';

  it('reads a 3,000-line file as a numbered window with the line count, an outline, and the way on; never above 60 kB', async () => {
    writeFileSync(join(root, 'src', 'big.ts'), big());
    const out = await run('read_file', { path: 'src/big.ts' });
    const [header] = out.split('\n');
    expect(header).toMatch(/^src\/big\.ts: lines 1-(\d+) of 3,000 \(the window stops at 25,000 bytes\)\. To read on, call read_file with start_line (\d+)\.$/);
    expect(out).toContain('Outline of the file (TypeScript/JavaScript definitions found by pattern, line: text):');
    expect(out).toContain('2901: export function part29(x: number): number {');
    expect(out).toContain('1500: export const MAX_WINDOW = 1500;');
    expect(out).toMatch(/\n {3}1\texport function part0\(x: number\): number \{\n {3}2\t {2}const v1 = x \+ 1; \/\/ line 2\n/);
    expect(Buffer.byteLength(out)).toBeLessThan(RESULT_LIMIT);
    // A window in the middle, by start and length: the numbers are the file's.
    const mid = await run('read_file', { path: 'src/big.ts', start_line: 1495, limit: 10 });
    expect(mid.split('\n')).toEqual([
      'src/big.ts: lines 1495-1504 of 3,000. To read on, call read_file with start_line 1505.',
      ...Array.from({ length: 10 }, (_, i) => `${1495 + i}\t${big().split('\n')[1494 + i]}`),
    ]);
    // What the window showed is what a citation of it holds to.
    const file = readFileSync(join(root, 'src', 'big.ts'), 'utf8');
    const [c] = citationsIn('src/big.ts:1500 `export const MAX_WINDOW = 1500;`');
    expect(citationProblem(c!, file)).toBeNull();
    // Copied with read_file's number in front, it still quotes the code.
    const [numbered] = citationsIn(`src/big.ts:1499-1500 \`${mid.split('\n')[6]}\``);
    expect(numbered!.quote).toBe('1500\texport const MAX_WINDOW = 1500;');
    expect(citationProblem(numbered!, file)).toBeNull();
    const [wrong] = citationsIn('src/big.ts:1498 `1500\texport const MAX_WINDOW = 1500;`');
    expect(citationProblem(wrong!, file)).toMatch(/does not contain/);
    // Line count as citations count it: the last line, not an empty one after the final newline.
    expect(await fail('read_file', { path: 'src/big.ts', start_line: 3001 })).toBe('start_line 3001 is past the end: src/big.ts has 3,000 lines');
    expect(await fail('read_file', { path: 'src/big.ts', start_line: 0 })).toBe("'start_line' must be a whole number from 1");
  });

  it('outlines a long Markdown file by its headings', async () => {
    const guide = Array.from({ length: 3000 }, (_, i) => (i % 500 === 0 ? `## Part ${i / 500}` : `Text of line ${i + 1}.`));
    guide.splice(10, 3, '```sh', '# not a heading', '```');
    writeFileSync(join(root, 'GUIDE.md'), guide.join('\n'));
    const out = await run('read_file', { path: 'GUIDE.md' });
    expect(out).toContain('Outline of the file (Markdown headings, line: text):\n   1: ## Part 0\n 501: ## Part 1\n');
    expect(out).toContain('2501: ## Part 5');
    expect(out).not.toContain(': # not a heading');
  });

  it('cuts long lines with a note, keeps a huge one-line file under the limit, and names binary files', async () => {
    writeFileSync(join(root, 'min.js'), `var a=${'1+'.repeat(400_000)}1;\n`);
    const out = await run('read_file', { path: 'min.js' });
    expect(out).toContain('… [line cut: 2,000 of 800,008 characters shown]');
    expect(out).toContain('(1 line was longer than 2,000 characters and cut');
    expect(Buffer.byteLength(out)).toBeLessThan(RESULT_LIMIT);
    writeFileSync(join(root, 'blob.bin'), Buffer.from([1, 0, 2, 3]));
    expect(await run('read_file', { path: 'blob.bin' })).toBe('blob.bin is a binary file (4 bytes); read_file shows text files only');
  });

  it('an edit answers with the changed lines, numbered, with context', async () => {
    writeFileSync(join(root, 'src', 'big.ts'), big());
    const out = await run('edit_file', {
      path: 'src/big.ts',
      old_string: 'export const MAX_WINDOW = 1500;',
      new_string: 'export const MAX_WINDOW = 2000;\nexport const MIN_WINDOW = 1;',
    });
    expect(out).toBe(
      [
        'edited src/big.ts: replaced 1 occurrence; it has 3001 lines now. The changed lines:',
        '1497\t  const v1496 = x + 1496; // line 1497',
        '1498\t  const v1497 = x + 1497; // line 1498',
        '1499\t  const v1498 = x + 1498; // line 1499',
        '1500\texport const MAX_WINDOW = 2000;',
        '1501\texport const MIN_WINDOW = 1;',
        '1502\texport function part15(x: number): number {',
        '1503\t  const v1501 = x + 1501; // line 1502',
        '1504\t  const v1502 = x + 1502; // line 1503',
      ].join('\n'),
    );
  });

  it('a miss names the nearest match: the same text spaced differently first, then the most similar lines', async () => {
    writeFileSync(join(root, 'src', 'a.py'), 'def add(a, b):\n    return a + b\n\n\ndef scale(values, factor):\n    return [v * factor for v in values]\n');
    expect(await fail('edit_file', { path: 'src/a.py', old_string: 'def add(a,b):\n  return a+b', new_string: 'x' })).toBe(
      [
        'old_string was not found in src/a.py. The same text, spaced differently (indentation, spaces or line breaks), is at lines 1-2:',
        '1\tdef add(a, b):',
        '2\t    return a + b',
        'Copy old_string from these lines exactly, white space included.',
      ].join('\n'),
    );
    const near = await fail('edit_file', { path: 'src/a.py', old_string: 'return [value * factor for value in values]', new_string: 'x' });
    expect(near).toMatch(
      /^old_string was not found in src\/a\.py\. The closest text \(\d+% alike\) is at lines 6-6:\n5\tdef scale\(values, factor\):\n6\t {4}return \[v \* factor for v in values\]\n/,
    );
    expect(await fail('edit_file', { path: 'src/a.py', old_string: 'zzzz qqqq', new_string: 'x' })).toMatch(/No part of the file is close to it/);
  });

  it('several matches are listed by line; replace_all changes them all and shows each', async () => {
    writeFileSync(join(root, 'src', 'a.js'), Array.from({ length: 40 }, (_, i) => (i % 10 === 0 ? 'old();' : `x${i};`)).join('\n'));
    expect(await fail('edit_file', { path: 'src/a.js', old_string: 'old();', new_string: 'neu();' })).toBe(
      'old_string occurs 4 times in src/a.js, at lines 1, 11, 21 and 31. Include more of the surrounding lines in old_string so it matches once, or set replace_all to true to change every one.',
    );
    const out = await run('edit_file', { path: 'src/a.js', old_string: 'old();', new_string: 'neu();', replace_all: true });
    expect(out.split('\n')[0]).toBe('edited src/a.js: replaced all 4 occurrences; it has 40 lines now. The changed lines:');
    for (const line of [1, 11, 21, 31]) expect(out).toContain(`${line}\tneu();`);
    expect(readFileSync(join(root, 'src', 'a.js'), 'utf8')).not.toContain('old();');
  });

  it('an edit that breaks Python, TypeScript, JavaScript, JSON or YAML comes back with the error; one the file had before does not', async () => {
    writeFileSync(join(root, 'src', 'a.py'), 'def add(a, b):\n    return a + b\n');
    const py = await run('edit_file', { path: 'src/a.py', old_string: 'return a + b', new_string: 'return (a + b' });
    expect(py).toContain('Syntax check (Python): the file no longer parses after this change: line 2: SyntaxError:');
    expect(py).toContain('The change was kept; fix it with another edit.');
    // Already broken: a further edit elsewhere does not repeat the old error.
    expect(await run('edit_file', { path: 'src/a.py', old_string: 'def add', new_string: 'def plus' })).not.toContain('Syntax check');

    writeFileSync(join(root, 'src', 'b.ts'), 'export function f(x: number): number {\n  return x;\n}\n');
    expect(await run('edit_file', { path: 'src/b.ts', old_string: 'return x;', new_string: 'return x +;' })).toMatch(
      /Syntax check \(TypeScript\): the file no longer parses after this change: line 2: /,
    );
    writeFileSync(join(root, 'src', 'c.mjs'), 'import { a } from "./a.mjs";\nexport const b = a;\n');
    expect(await run('edit_file', { path: 'src/c.mjs', old_string: 'export const b = a;', new_string: 'export const b = a +;' })).toMatch(
      /Syntax check \(JavaScript\): .*line 2: SyntaxError: Unexpected token/,
    );
    expect(await run('edit_file', { path: 'src/c.mjs', old_string: 'import { a }', new_string: 'import { a, c }' })).not.toContain('Syntax check');
    writeFileSync(join(root, 'cfg.json'), '{"a": 1}\n');
    expect(await run('edit_file', { path: 'cfg.json', old_string: '1}', new_string: '1,}' })).toContain('Syntax check (JSON)');
    expect(await run('write_file', { path: 'ci.yml', content: 'a: [1, 2\nb: 3\n' })).toMatch(/Syntax check \(YAML\): .*line 2/);
    expect(await run('write_file', { path: 'ok.yml', content: 'a: [1, 2]\n' })).toBe('wrote ok.yml (1 line)');
  });

  it('lists files within a byte limit and says where it stopped', async () => {
    for (let i = 0; i < 400; i++) writeFileSync(join(root, `${'n'.repeat(120)}-${i}.txt`), '');
    const out = await run('list_files', {});
    expect(Buffer.byteLength(out)).toBeLessThan(31_000);
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^\(listing stopped at \d+ files, the limit of 500 files or 30,000 bytes; list a sub-folder\)$/);
  });
});

describe('every tool result is bounded (#48)', () => {
  it('edit answers on huge files and huge strings stay under 60 kB', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bounded-edit-'));
    try {
      const tools = new Map(workspaceTools(new PathJail(root), () => undefined).map((t) => [t.spec.name, t]));
      const run = (name: string, input: unknown) => Promise.resolve(tools.get(name)!.run(input)).then(String, (e: Error) => e.message);
      // Every line long, every line a match: replace_all shows five regions of cut lines.
      writeFileSync(join(root, 'wide.js'), Array.from({ length: 2000 }, (_, i) => `x${i} = "${'y'.repeat(3000)}";`).join('\n'));
      const all = await run('edit_file', { path: 'wide.js', old_string: '"y', new_string: '"z', replace_all: true });
      expect(all.split('\n')[0]).toBe('edited wide.js: replaced all 2000 occurrences; it has 2000 lines now. The changed lines:');
      expect(all).toContain('… [line cut: 3,008 characters]');
      expect(Buffer.byteLength(all)).toBeLessThan(RESULT_LIMIT);
      // A near miss for a 5,000-line old_string shows 30 of its lines.
      writeFileSync(join(root, 'long.py'), Array.from({ length: 6000 }, (_, i) => `value_${i} = ${i}`).join('\n'));
      const miss = await run('edit_file', {
        path: 'long.py',
        old_string: Array.from({ length: 5000 }, (_, i) => `value_${i}=${i}`).join('\n') + '\nnot there',
        new_string: '',
      });
      expect(miss).toMatch(/^old_string was not found in long\.py\. The closest text \(\d+% alike\) is at lines 1-5001:/);
      expect(miss).toContain('… (4,971 more lines; read_file shows them)');
      expect(Buffer.byteLength(miss)).toBeLessThan(RESULT_LIMIT);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('check_inbox hands out at most 30,000 bytes a call, and the rest on the next', async () => {
    const inbox = Array.from({ length: 40 }, (_, i) => ({
      id: `m${i}`,
      from: 't2',
      to: 't1',
      type: 'message' as const,
      text: `${i} ${'w'.repeat(3990)}`,
      at: '',
    }));
    const delivered = new Set<string>();
    const check = teamTools('t1', { running: async () => [], send: async () => undefined, inbox: async () => inbox as never }, delivered).find(
      (t) => t.spec.name === 'check_inbox',
    )!;
    const first = String(await check.run({}));
    expect(Buffer.byteLength(first)).toBeLessThan(31_000);
    expect(first).toMatch(/\((\d+) more messages: call check_inbox again\)$/);
    const answers = [first];
    for (let a = String(await check.run({})); a !== 'no new messages'; a = String(await check.run({}))) answers.push(a);
    expect(delivered.size).toBe(40);
    expect(answers.join('\n').match(/^from t2/gm)).toHaveLength(40);
    expect(answers.every((a) => Buffer.byteLength(a) < 31_000)).toBe(true);
    expect(await check.run({})).toBe('no new messages');
  });

  it('search over a huge repository stays under 60 kB', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'bounded-'));
    try {
      execFileSync('git', ['init', '-q', repo]);
      writeFileSync(join(repo, 'wide.txt'), Array.from({ length: 5000 }, () => `needle ${'w'.repeat(2000)}`).join('\n'));
      for (const mode of ['lines', 'files']) {
        const out = String(await searchTool(new PathJail(repo), 30_000).run({ pattern: 'needle', mode }));
        expect(Buffer.byteLength(out)).toBeLessThan(RESULT_LIMIT);
        expect(out.split('\n')[0]).toMatch(/^5,000 matching lines in 1 file/);
      }
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
