import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../src/config/schema';
import { parseCommand } from '../../../src/domain/commands';
import { boundReport, checkResult, REPORT_LIMITS } from '../../../src/domain/result';
import { ZERO_USAGE } from '../../../src/domain/run-state';
import { readEvent, UnsupportedEvent } from '../../../src/event';
import { redact, TOKEN_PATTERNS } from '../../../src/text/redact';
import { sanitize } from '../../../src/text/sanitize';

/** A seeded generator, so a failure names an input that can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}

const FRAGMENTS = [
  '<!--',
  '-->',
  '<div hidden>',
  '</div>',
  '<span style="display:none">',
  '</span>',
  '<img alt="x">',
  '![a',
  '](',
  ')',
  '[',
  ']',
  '&#60;',
  '&#x200B;',
  '&zwj;',
  '&amp;',
  '```',
  '~~~',
  '`',
  '\n',
  '\r\n',
  '\t',
  ' ',
  '<',
  '>',
  '&',
  '"',
  "'",
  '/crew',
  'run',
  'ghp_',
  'sk-ant-',
  '\u200B',
  '\u202E',
  '\u{E0041}',
  '\uFE0F',
  '\uD800',
  '\uDC00',
  '\u0000',
  '漢',
  '🙂',
  'a',
  'Z',
  '0',
];

/** Random text: raw code units (lone surrogates and control characters included) mixed with markup that matters here. */
function randomText(r: ReturnType<typeof rng>, length: number): string {
  let out = '';
  while (out.length < length) out += r.next() < 0.5 ? String.fromCharCode(r.int(0x10000)) : r.pick(FRAGMENTS);
  return out;
}

const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;

describe('fuzz: random bytes and huge inputs never crash, hang or leak', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crew-fuzz-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('sanitize: 400 random texts come out bounded, without comments or invisible characters, and settle', () => {
    const r = rng(9);
    for (let i = 0; i < 400; i++) {
      const input = randomText(r, r.int(3000));
      const out = sanitize(input, 2000);
      expect(out.length, `seed 9 #${i}`).toBeLessThanOrEqual(2000 + 120);
      expect(out).not.toMatch(INVISIBLE);
      expect(out).not.toMatch(/<!--[\s\S]*?-->/);
      if (!out.includes('[truncated:') && !out.includes('[the rest is cut')) expect(sanitize(out, 2000), `seed 9 #${i}`).toBe(out);
    }
  });

  // The bound catches super-linear regular expressions (on a megabyte they take minutes), not speed:
  // it must hold on a loaded machine, so it is ten times what one pass takes there.
  it('sanitize: a megabyte of random or adversarial text takes linear time, not minutes', () => {
    const r = rng(11);
    const inputs = [
      randomText(r, 1_000_000),
      '<!<!--'.repeat(200_000),
      '<div hidden>'.repeat(100_000),
      '[x]('.repeat(250_000),
      '![['.repeat(300_000),
      '<a '.concat('b '.repeat(500_000)),
      '&#60;'.repeat(200_000),
    ];
    for (const input of inputs) {
      const t = performance.now();
      const out = sanitize(input);
      expect(performance.now() - t, input.slice(0, 12)).toBeLessThan(10_000);
      expect(out.length).toBeLessThanOrEqual(20_000 + 120);
    }
  });

  it('parseCommand: random comments never throw; only text starting with /crew is a command', () => {
    const r = rng(13);
    for (let i = 0; i < 2000; i++) {
      const body = (r.next() < 0.5 ? '/crew ' : '') + randomText(r, r.int(200));
      const cmd = parseCommand(body);
      if (!/^\/crew(?=\s|$)/.test(body)) expect(cmd).toBeUndefined();
      else expect(cmd?.kind).toMatch(/^[a-z]+$/);
    }
    expect(parseCommand(`/crew answer ${'x'.repeat(1_000_000)}`)).toMatchObject({ kind: 'answer' });
  });

  it('redact: tokens hidden in random text are always removed, and nothing else breaks', () => {
    const r = rng(17);
    const tokens = [
      'ghp_' + 'A1'.repeat(18),
      'github_pat_' + 'b'.repeat(40),
      'sk-ant-api03-' + 'c'.repeat(40),
      'AKIAIOSFODNN7EXAMPLE',
      'xoxb-1234567890-abcdefghij',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop',
    ];
    for (let i = 0; i < 500; i++) {
      const token = r.pick(tokens);
      const text = `${randomText(r, r.int(300))} ${token} ${randomText(r, r.int(300))}`;
      const out = redact(text);
      expect(out, `seed 17 #${i}`).not.toContain(token);
      for (const p of Object.values(TOKEN_PATTERNS)) expect(out.match(new RegExp(p.source, 'g')) ?? [], p.source).toEqual([]);
    }
    // As for sanitize: a bound that catches super-linear patterns on a loaded machine, not a speed target.
    const t = performance.now();
    redact(randomText(r, 1_000_000));
    expect(performance.now() - t).toBeLessThan(10_000);
  });

  it('a worker report of any size is kept bounded, with a note where it was cut', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} of a very long report`).join('\n');
    const { reported, notes } = boundReport({
      status: 'success',
      summary: 's'.repeat(10_000),
      details: lines,
      feedback: { type: 'implementation', result: 'r', changes: Array.from({ length: 500 }, () => 'c'.repeat(5000)) },
    });
    expect(reported.details!.length).toBeLessThan(REPORT_LIMITS.details + 200);
    expect(reported.details).toMatch(/\[cut: the details had [\d,]+ characters; the first 40,000 are kept\]$/);
    expect(reported.summary!.length).toBeLessThan(REPORT_LIMITS.summary + 200);
    expect(reported.feedback).toMatchObject({ type: 'implementation' });
    const changes = (reported.feedback as { changes: string[] }).changes;
    expect(changes).toHaveLength(REPORT_LIMITS.items);
    expect(changes.every((c) => c.length < REPORT_LIMITS.item + 200)).toBe(true);
    expect(notes).toEqual(
      expect.arrayContaining([
        'summary cut to 2,000 characters (the worker wrote 10,000)',
        expect.stringMatching(/^details cut to 40,000 characters/),
        'feedback list cut to 50 items (the worker gave 500)',
      ]),
    );
    const checked = checkResult(
      { status: 'success', quality: 'GREEN', completeness: 100, summary: 'ok', details: `${lines}\n\`\`\`js\nx\n\`\`\`` },
      { persona: 'coder', ending: 'reported', changedFiles: ['a'], turns: 1, usage: ZERO_USAGE, toolCalls: {} },
    );
    expect(checked.status).toBe('success');
    expect(checked.details.length).toBeLessThan(REPORT_LIMITS.details + 200);
    expect(checked.metadataIssues[0]).toMatch(/^details cut to 40,000 characters/);
  });

  it('random bytes as the event payload or the config file end in a clear error, not a crash', () => {
    const r = rng(23);
    let refused = 0;
    for (let i = 0; i < 100; i++) {
      const bytes = Buffer.from(Array.from({ length: r.int(400) }, () => r.int(256)));
      const file = join(dir, `event-${i}.json`);
      writeFileSync(file, bytes);
      expect(() => readEvent('issue_comment', file), `seed 23 #${i}`).toThrow(UnsupportedEvent);
      try {
        parseConfig(bytes.toString('utf8'));
      } catch (e) {
        expect(e, `seed 23 #${i}`).toBeInstanceOf(ConfigError);
        refused++;
      }
    }
    // Short inputs can be valid YAML for an empty config; nearly all random bytes must be refused.
    expect(refused).toBeGreaterThan(90);
  });
});
