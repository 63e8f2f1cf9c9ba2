import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as core from '../../../src/adapters/runner/workflow-commands';
import { readKeyValueFile } from '../../support/runner/output-files';
import { parseV2 } from '../../support/runner/workflow-commands';
import { restoreEnv } from '../../support/process-env';

/** Values a writer must carry whole: line breaks, `=`, `<<`, a would-be delimiter line, a `\r`, nothing at all. */
const VALUES: Record<string, string> = {
  plain: '42',
  multi: 'line one\nline two',
  equals: 'a=b\nc=d',
  heredoc: 'x<<EOF\nEOF\ny',
  delimiterish: 'ghadelimiter_\nend',
  cr: 'windows\r\nline',
  empty: '',
};

let dir: string;
const saved = { ...process.env };
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crew-commands-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  restoreEnv(saved);
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

const stdout = () => {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(...String(chunk).split('\n').slice(0, -1));
    return true;
  });
  return lines;
};

describe("crew's workflow commands, read back as actions/runner reads them (the offline runner's parsers)", () => {
  it('step outputs: every value comes back whole from GITHUB_OUTPUT, whatever lines it holds', async () => {
    const file = join(dir, 'output');
    writeFileSync(file, '');
    process.env.GITHUB_OUTPUT = file;
    for (const [name, value] of Object.entries(VALUES)) core.setOutput(name, value);
    expect(await readKeyValueFile(file)).toEqual(VALUES);
  });

  it('the runner is not kind to a writer that gets the file form wrong: such a writer would fail the test above', async () => {
    const read = (text: string) => {
      const file = join(dir, 'wrong');
      writeFileSync(file, text);
      return readKeyValueFile(file);
    };
    // `name=value` with a line break: the next line is no command (FileCommandManager: "Invalid format").
    await expect(read('multi=line one\nline two\n')).rejects.toThrow(/Invalid format 'line two'/);
    // A fixed delimiter that the value holds: the value ends early and its rest becomes an output of its own.
    await expect(read('heredoc<<EOF\nx<<EOF\nEOF\ny\nEOF\n')).rejects.toThrow(/Invalid format 'y'/);
    await expect(read('equals<<EOF\na=b\nEOF\nstray\nEOF\n')).rejects.toThrow(/Invalid format 'stray'/);
    // Lines end at \n alone on Linux: a delimiter line ending in \r is not the delimiter.
    await expect(read('crlf<<D\nvalue\r\nD\r\n')).rejects.toThrow(/Matching delimiter not found/);
    // (Written with \r\n throughout, the \r is part of the delimiter, and of the value.)
    expect(await read('crlf<<D\r\nvalue\r\nD\r\n')).toEqual({ crlf: 'value\r' });
  });

  it('refuses an output whose name or value holds its own delimiter, as @actions/core does', () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect(() => core.heredoc('x', `a\nghadelimiter_${id}\nb`, id)).toThrow(/holds its own delimiter/);
    expect(() => core.heredoc(`x<<ghadelimiter_${id}`, 'a', id)).toThrow(/holds its own delimiter/);
    expect(core.heredoc('x', 'a', id)).toBe(`x<<ghadelimiter_${id}\na\nghadelimiter_${id}`);
    // Each output gets a delimiter of its own.
    expect(core.heredoc('x', 'a')).not.toBe(core.heredoc('x', 'a'));
  });

  it('log commands: one line each, whose data the runner unescapes to the message', () => {
    const lines = stdout();
    const message = 'a 100% sure\r\nthing: with, commas\nand ::colons::';
    core.warning(message);
    core.startGroup(message);
    core.endGroup();
    core.setSecret('s3cr%t\nline');
    core.info('plain');
    expect(lines).toHaveLength(5);
    const all = { has: () => true } as unknown as ReadonlySet<string>;
    expect(
      lines
        .slice(0, 4)
        .map((l) => parseV2(l, all))
        .map((c) => [c?.command, c?.data]),
    ).toEqual([
      ['warning', message],
      ['group', message],
      ['endgroup', ''],
      ['add-mask', 's3cr%t\nline'],
    ]);
    expect(lines[4]).toBe('plain');
  });

  it('setFailed fails the step: exit code 1 and an error line', () => {
    const lines = stdout();
    core.setFailed('it broke:\n100%');
    expect(process.exitCode).toBe(1);
    expect(lines).toEqual(['::error::it broke:%0A100%25']);
  });

  it('inputs are INPUT_<NAME> upper case with spaces as underscores, trimmed; the summary is appended to', async () => {
    process.env.INPUT_GITHUB_TOKEN = '  tok \n';
    process.env['INPUT_MY_INPUT'] = 'v';
    expect(core.getInput('github_token')).toBe('tok');
    expect(core.getInput('my input')).toBe('v');
    expect(core.getInput('absent')).toBe('');
    const summary = join(dir, 'summary');
    writeFileSync(summary, 'before\n');
    process.env.GITHUB_STEP_SUMMARY = summary;
    await core.appendSummary('## after');
    expect(readFileSync(summary, 'utf8')).toBe('before\n## after');
    delete process.env.GITHUB_OUTPUT;
    expect(() => core.setOutput('x', 'y')).toThrow(/GITHUB_OUTPUT is not set/);
  });

  it("a summary that would take the step's file past the runner's 1 MiB is cut at a line, saying so, and the file stays within it", async () => {
    const summary = join(dir, 'big-summary');
    writeFileSync(summary, 'x'.repeat(1000) + '\n');
    process.env.GITHUB_STEP_SUMMARY = summary;
    const row = '| t1 | ✅ | a row of the agent runs table, ünïcode too |\n';
    await core.appendSummary(row.repeat(Math.ceil(core.STEP_SUMMARY_LIMIT / Buffer.byteLength(row)) + 10));
    const written = readFileSync(summary);
    expect(written.length).toBeLessThanOrEqual(core.STEP_SUMMARY_LIMIT);
    expect(written.length).toBeGreaterThan(core.STEP_SUMMARY_LIMIT - 1024);
    const text = written.toString('utf8');
    expect(text).not.toContain('\uFFFD');
    const kept = text.slice(0, text.lastIndexOf('\n\n_crew'));
    const left = 1001 + Buffer.byteLength(row.repeat(Math.ceil(core.STEP_SUMMARY_LIMIT / Buffer.byteLength(row)) + 10)) - Buffer.byteLength(kept);
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      `_crew cut this summary short: the last ${left} bytes of it are left out, as GitHub shows at most 1024 KiB of a step's summary._`,
    );
    expect(text.trimEnd().split('\n').at(-3)).toBe(row.trimEnd());
    // A small one still goes in whole.
    writeFileSync(summary, '');
    await core.appendSummary(row);
    expect(readFileSync(summary, 'utf8')).toBe(row);
  });

  /** The summary file's text, and the bytes its cut note says are left out (none when it has no note). */
  const noted = (file: string) => {
    const text = readFileSync(file, 'utf8');
    const m = /\n\n_crew cut this summary short: the last (\d+) bytes of it are left out, as GitHub shows at most 4 KiB of a step's summary\._\n$/.exec(text);
    return { text, bytes: Buffer.byteLength(text), left: m ? Number(m[1]) : undefined, kept: m ? text.slice(0, m.index) : text };
  };

  it('an append to a file too full for the note itself cuts the earlier text back to make room: never dropped without a note', async () => {
    const summary = join(dir, 'full-summary');
    const line = 'a line of the earlier summary\n';
    const before = line.repeat(Math.floor((4096 - 10) / line.length));
    writeFileSync(summary, before);
    process.env.GITHUB_STEP_SUMMARY = summary;
    await core.appendSummary('## one more part\n', 4096);
    const s = noted(summary);
    expect(s.bytes).toBeLessThanOrEqual(4096);
    expect(s.left).toBeDefined();
    expect(before.startsWith(s.kept)).toBe(true);
    // What is kept and what the note counts add up to all that was written.
    expect(Buffer.byteLength(s.kept) + s.left!).toBe(Buffer.byteLength(before) + Buffer.byteLength('## one more part\n'));
  });

  it('after a cut, a later append is left out and counted in the note, which stays last; a file changed since starts afresh', async () => {
    const summary = join(dir, 'cut-summary');
    writeFileSync(summary, '');
    process.env.GITHUB_STEP_SUMMARY = summary;
    const row = '| t1 | done |\n';
    await core.appendSummary(row.repeat(400), 4096);
    const first = noted(summary);
    expect(first.left).toBeGreaterThan(0);
    await core.appendSummary('## a later part\n', 4096);
    await core.appendSummary('x', 4096);
    const later = noted(summary);
    expect(later.text).not.toContain('a later part');
    expect(later.kept).toBe(first.kept);
    expect(later.left).toBe(first.left! + Buffer.byteLength('## a later part\n') + 1);
    expect(later.bytes).toBeLessThanOrEqual(4096);
    writeFileSync(summary, 'new\n');
    await core.appendSummary('## fits\n', 4096);
    expect(readFileSync(summary, 'utf8')).toBe('new\n## fits\n');
  });

  it('appends made at once go in one after the other: the file stays within the limit and the note counts all that is left out', async () => {
    const summary = join(dir, 'busy-summary');
    writeFileSync(summary, '');
    process.env.GITHUB_STEP_SUMMARY = summary;
    const parts = ['a line of part one\n'.repeat(150), 'a line of part two\n'.repeat(150), '## part three\n'];
    await Promise.all(parts.map((p) => core.appendSummary(p, 4096)));
    const s = noted(summary);
    expect(s.bytes).toBeLessThanOrEqual(4096);
    expect(parts.join('').startsWith(s.kept)).toBe(true);
    expect(s.kept.length).toBeGreaterThan(parts[0]!.length);
    expect(Buffer.byteLength(s.kept) + s.left!).toBe(Buffer.byteLength(parts.join('')));
  });

  it('a note whose count grows by digits takes the kept text back a line, so the file never passes the limit', async () => {
    const summary = join(dir, 'growing-summary');
    writeFileSync(summary, '');
    process.env.GITHUB_STEP_SUMMARY = summary;
    // Two-byte lines: the first cut ends at most a byte short of the room the note left.
    let total = 0;
    for (const part of ['x\n'.repeat(2500), 'y'.repeat(100_000), 'z'.repeat(10_000_000)]) {
      await core.appendSummary(part, 4096);
      total += Buffer.byteLength(part);
      const s = noted(summary);
      expect(s.bytes).toBeLessThanOrEqual(4096);
      expect(Buffer.byteLength(s.kept) + s.left!).toBe(total);
    }
  });
});
