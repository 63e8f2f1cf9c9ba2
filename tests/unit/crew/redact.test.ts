import { describe, expect, it } from 'vitest';
import type { StateSnapshot, StateStore, StateTx } from '../../../src/ports';
import { redactingStore } from '../../../src/state/redacting-store';
import { addSecret, redact, TOKEN_PATTERNS } from '../../../src/text/redact';

/** One real-shaped sample per pattern, and text that only looks close. */
const SAMPLES = {
  github: {
    tokens: ['ghp_' + 'a1B2'.repeat(9), 'ghs_' + 'Z9'.repeat(18), 'gho_' + 'x'.repeat(36), 'ghu_' + 'y'.repeat(36), 'ghr_' + 'r'.repeat(36)],
    near: ['ghp_short', 'ghx_' + 'a'.repeat(36), 'the ghp prefix'],
  },
  github_fine_grained: { tokens: ['github_pat_11ABCDEFG0' + 'x'.repeat(70)], near: ['github_pat_', 'github_pat_short'] },
  anthropic: { tokens: ['sk-ant-api03-' + 'q'.repeat(80) + '-AA', 'sk-ant-admin01-' + 'k'.repeat(40)], near: ['sk-ant-', 'sk-ant is a prefix'] },
  aws_access_key: { tokens: ['AKIAIOSFODNN7EXAMPLE', 'ASIAY34FZKBOKMUTVV7A', 'AROAJQABLZS4A3QDU576'], near: ['AKIA123', 'AKIAIOSFODNN7EXAMPLEX'] },
  slack_config: { tokens: ['xoxe.xoxp-1-Mi0yLTM0MTQwNDI0MDAwMC0xNjg'], near: ['xoxe.'] },
  slack: {
    tokens: ['xoxb-1234567890-0987654321-AbCdEfGhIjKl', 'xoxp-12345-67890-abcdef', 'xoxa-2-abcdefghijk', 'xoxs-abcdefghijkl'],
    near: ['xoxb-', 'xoxb-123', 'xoxz-1234567890123'],
  },
  jwt: {
    tokens: ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    near: ['eyJhbGciOiJIUzI1NiJ9 alone', 'eyJ.eyJ.x'],
  },
} satisfies Record<string, { tokens: string[]; near: string[] }>;

describe('redact: every token shape, in any surrounding text', () => {
  for (const [name, { tokens, near }] of Object.entries(SAMPLES)) {
    it(name, () => {
      for (const t of tokens) {
        // Plain, in assignments, quoted, in headers, and escaped inside JSON or YAML (a letter right before the token).
        const json = (x: string) => JSON.stringify({ details: `found:\n${x}\tand\r${x}` });
        const yaml = (x: string) => `details: "found:\\n${x}"`;
        for (const around of [
          (x: string) => x,
          (x: string) => `token=${x}`,
          (x: string) => `"${x}",`,
          (x: string) => `Authorization: Bearer ${x}\n`,
          (x: string) => `(${x})`,
          json,
          yaml,
        ]) {
          const out = redact(around(t));
          expect(out, `${name}: ${around(t)}`).not.toContain(t);
          expect(out).toContain('***');
        }
      }
      for (const n of near) expect(redact(`x ${n} y`), n).toBe(`x ${n} y`);
    });
  }

  it('has a sample for every pattern it applies', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(TOKEN_PATTERNS).sort());
  });

  it('a registered secret is removed as it is, and in the base64 forms git and HTTP carry it in', () => {
    const token = 'crew-test-token-4d2b7f';
    addSecret(token);
    const header = Buffer.from(`x-access-token:${token}`).toString('base64');
    expect(redact(`remote: ${token}`)).toBe('remote: ***');
    expect(redact(`http.extraheader=AUTHORIZATION: basic ${header}`)).toBe('http.extraheader=AUTHORIZATION: basic ***');
    expect(redact(Buffer.from(token).toString('base64'))).toBe('***');
    addSecret('abc'); // too short to register without redacting ordinary words
    expect(redact('abc abcdef')).toBe('abc abcdef');
  });

  it('a registered secret is removed in its hex and base64 forms too, wherever it sits in the encoded stream', () => {
    const secret = 'sk-proj-hexbase64-canary-7f3a91c2';
    addSecret(secret);
    const hex = Buffer.from(`env: KEY=${secret}\n`).toString('hex');
    expect(redact(hex)).not.toContain(Buffer.from(secret).toString('hex'));
    expect(redact(hex.toUpperCase())).not.toContain(Buffer.from(secret).toString('hex').toUpperCase());
    // `cat /proc/$PPID/environ | base64`: the secret starts at every alignment of a 3-byte group.
    for (const before of ['', 'A', 'AB', 'ABC=', 'INPUT_ANTHROPIC_API_KEY=']) {
      for (const encode of [(b: Buffer) => b.toString('base64'), (b: Buffer) => b.toString('base64url')]) {
        const printed = encode(Buffer.from(`${before}${secret}\0PATH=/usr/bin`));
        const shown = redact(printed);
        expect(shown, `${before}|${printed}`).toContain('***');
        // What is left cannot be decoded back into the secret, nor into any 10 of its characters.
        const decoded = Buffer.from(shown.replace(/\*+/g, ''), 'base64').toString('latin1');
        for (let i = 0; i + 10 <= secret.length; i++) expect(decoded).not.toContain(secret.slice(i, i + 10));
      }
    }
    // Ordinary hex and base64 are left alone.
    expect(redact('deadbeef 0123456789abcdef aGVsbG8gd29ybGQ=')).toBe('deadbeef 0123456789abcdef aGVsbG8gd29ybGQ=');
  });

  it('is idempotent and leaves ordinary text alone', () => {
    const text = `a ${SAMPLES.github.tokens[0]} b ${SAMPLES.jwt.tokens[0]} c`;
    expect(redact(redact(text))).toBe(redact(text));
    const prose = 'Set GITHUB_TOKEN in the workflow; keys look like sk-ant-… and start with AKIA.';
    expect(redact(prose)).toBe(prose);
  });
});

describe('the crew/state branch is redacted like anything crew posts', () => {
  it('file contents and commit messages written through the store are redacted; reads pass through', async () => {
    const files = new Map<string, string>();
    const messages: string[] = [];
    const tx: StateTx = {
      read: (p) => files.get(p),
      write: (p, c) => void files.set(p, c),
      remove: (p) => void files.delete(p),
      list: () => [...files.keys()],
    };
    const snapshot: StateSnapshot = { version: '1', read: (p) => files.get(p), list: () => [...files.keys()] };
    const inner: StateStore = {
      load: async () => snapshot,
      loadRuns: async () => snapshot,
      update: async (_prefix, message, mutate) => {
        messages.push(message);
        return { value: mutate(tx), snapshot };
      },
    };
    const token = SAMPLES.github.tokens[0]!;
    files.set('a.md', `kept ${token}`);
    const store = redactingStore(inner);
    const { value } = await store.update('x/', `record ${token}`, (t) => {
      t.write('result.md', `the worker pasted ${token}`);
      return t.read('a.md');
    });
    expect(value).toBe(`kept ${token}`);
    expect(files.get('result.md')).toBe('the worker pasted ***');
    expect(messages).toEqual(['record ***']);
  });
});
