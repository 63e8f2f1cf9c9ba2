import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { data, Evaluator, Lexer, Parser } from '@actions/expressions';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { evaluate, type ExprContext, type ExprValue, type StatusFunctions } from '../../support/runner/expressions';
import { splitTemplate } from '../../support/runner/expressions/template';

// Why the offline runner keeps its own evaluator (issue #16 §7, docs/ARCHITECTURE.md "Things that will bite
// you"): GitHub's @actions/expressions evaluates every expression crew's shipped workflows use, with our status
// functions plugged in, but it differs from GitHub where the cases below show. When a new version closes these
// gaps, the "differs" tests fail: that is the time to switch the runner to it.

const CONTEXTS = ['github', 'env', 'vars', 'secrets', 'inputs', 'needs', 'matrix', 'steps', 'job', 'jobs', 'runner', 'strategy'];
const STATUS = ['success', 'failure', 'cancelled', 'always'] as const;

function toData(v: ExprValue | undefined): data.ExpressionData {
  if (v === null || v === undefined) return new data.Null();
  if (typeof v === 'boolean') return new data.BooleanData(v);
  if (typeof v === 'number') return new data.NumberData(v);
  if (typeof v === 'string') return new data.StringData(v);
  if (Array.isArray(v)) return new data.Array(...v.map(toData));
  return new data.Dictionary(...Object.entries(v).map(([key, value]) => ({ key, value: toData(value) })));
}

function fromData(d: data.ExpressionData): ExprValue {
  if (d instanceof data.Array) return d.values().map(fromData);
  if (d instanceof data.Dictionary) return Object.fromEntries(d.pairs().map((p) => [p.key, fromData(p.value)]));
  return d instanceof data.Null ? null : (d as data.StringData | data.NumberData | data.BooleanData).value;
}

/** An expression evaluated by @actions/expressions, with crew's status functions as extension functions. */
function library(expr: string, ctx: ExprContext, status?: StatusFunctions): ExprValue {
  const tree = new Parser(
    new Lexer(expr).lex().tokens,
    [...CONTEXTS, ...Object.keys(ctx)],
    STATUS.map((name) => ({ name, minArgs: 0, maxArgs: 0 })),
  ).parse();
  const functions = new Map(
    STATUS.map((name) => [
      name,
      {
        name,
        minArgs: 0,
        maxArgs: 0,
        call: () => {
          if (!status) throw new Error(`${name}() outside if:`);
          return new data.BooleanData(name === 'always' ? (status.always?.() ?? true) : status[name]());
        },
      },
    ]),
  );
  const context = new data.Dictionary(...[...new Set([...CONTEXTS, ...Object.keys(ctx)])].map((key) => ({ key, value: toData(ctx[key]) })));
  return fromData(new Evaluator(tree, context, functions).evaluate());
}

const outcome = (run: () => ExprValue): { value: ExprValue } | { error: true } => {
  try {
    return { value: run() };
  } catch {
    return { error: true };
  }
};

/** Every `if:` and every `${{ … }}` in a workflow file. */
function expressionsIn(file: string): string[] {
  const found = new Set<string>();
  const walk = (node: unknown, key?: string): void => {
    if (typeof node === 'string') {
      if (key === 'if' && !node.includes('${{')) found.add(node);
      else if (node.includes('${{')) for (const s of splitTemplate(node)) if (s.kind === 'expression') found.add(s.source.trim());
    } else if (Array.isArray(node)) node.forEach((item) => walk(item));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, k);
  };
  walk(parseYaml(readFileSync(join(__dirname, '../../../.github/workflows', file), 'utf8')));
  return [...found];
}

const SHIPPED = ['crew.yml', 'ci.yml', 'release.yml'].flatMap(expressionsIn);

const base = {
  secrets: { ANTHROPIC_API_KEY: 'k', RELEASE_TOKEN: 'r' },
  matrix: { task: 't1' },
  steps: { crew: { outputs: { issue: '12', run: '1', tasks: '["t2"]', critic: 'true' } } },
};
const repo = { repository: { default_branch: 'main' } };
const EVENTS: Record<string, ExprContext> = {
  comment: {
    ...base,
    github: {
      event_name: 'issue_comment',
      token: 'ghs_x',
      event: { ...repo, comment: { body: '/crew go', user: { type: 'User' } }, issue: { labels: [{ name: 'crew: waiting' }] } },
    },
    needs: {
      route: { result: 'success', outputs: { issue: '12', run: '1', tasks: '["t1","t2"]' } },
      work: { result: 'failure' },
      advance: { outputs: { critic: 'true' } },
    },
    inputs: {},
  },
  reply: {
    ...base,
    github: { event_name: 'issue_comment', event: { ...repo, comment: { body: 'yes', user: { type: 'Bot' } }, issue: { labels: [{ name: 'bug' }] } } },
    needs: {
      route: { result: 'success', outputs: { issue: '', run: '', tasks: '' } },
      work: { result: 'skipped' },
      advance: { result: 'skipped', outputs: {} },
    },
  },
  dispatch: {
    ...base,
    github: { event_name: 'workflow_dispatch', event: repo },
    inputs: { issue: '12', run: '1', tasks: '[]', nonce: 'n' },
    needs: { route: { result: 'skipped', outputs: {} }, work: { result: 'success' }, advance: { outputs: { critic: 'false' } } },
  },
  suite: {
    ...base,
    github: { event_name: 'check_suite', event: { ...repo, check_suite: { head_branch: 'crew/12/r1/integration', pull_requests: [{ number: 3 }] } } },
  },
  review: { ...base, github: { event_name: 'pull_request_review', event: { ...repo, pull_request: { head: { ref: 'crew/12/r1/integration' } } } } },
};
const STATUSES: Record<string, StatusFunctions> = {
  succeeded: { success: () => true, failure: () => false, cancelled: () => false },
  failed: { success: () => false, failure: () => true, cancelled: () => false },
  cancelled: { success: () => false, failure: () => false, cancelled: () => true },
};

describe('@actions/expressions on the workflows crew ships', () => {
  it('finds the expressions: the triggers, status functions, fromJSON, the .* filter and an index', () => {
    expect(SHIPPED.length).toBeGreaterThan(15);
    for (const form of [
      'startsWith(',
      'contains(github.event.issue.labels.*.name',
      'fromJSON(',
      'always()',
      '!cancelled()',
      'pull_requests[0] != null',
      'github.token',
    ])
      expect(
        SHIPPED.some((e) => e.includes(form)),
        form,
      ).toBe(true);
  });

  it.each(SHIPPED)('evaluates %s as crew’s evaluator does, for every event and status', (expr) => {
    for (const [event, ctx] of Object.entries(EVENTS))
      for (const [name, status] of Object.entries(STATUSES))
        expect(
          outcome(() => library(expr, ctx, status)),
          `${event}, ${name}`,
        ).toEqual(outcome(() => evaluate(expr, ctx, status)));
  });
});

describe('where @actions/expressions (0.3.x) differs from GitHub, so the runner keeps its own evaluator', () => {
  it("unescapes only the first '' of a string literal (GitHub docs, Literals: '' is a quote, every time)", () => {
    expect(evaluate("'it''s ''quoted'''", {})).toBe("it's 'quoted'");
    expect(library("'it''s ''quoted'''", {})).toBe("it's ''quoted''");
  });

  it('accepts an empty last argument, a syntax error on GitHub', () => {
    expect(() => evaluate("format('x',)", {})).toThrow("Unexpected symbol: ')'");
    expect(library("format('x',)", {})).toBe('x');
    expect(library("contains('abc', 'b',)", {})).toBe(true);
  });

  it('drops an object key named constructor (its dictionaries look keys up with `in` on a plain object)', () => {
    const ctx = { github: { event: { constructor: 'x', inputs: { constructor: 1 } } } };
    expect(evaluate('github.event.constructor', ctx)).toBe('x');
    expect(library('github.event.constructor', ctx)).toBe(null);
    expect(evaluate(`fromJSON('{"constructor": 1}').constructor`, {})).toBe(1);
    expect(library(`fromJSON('{"constructor": 1}').constructor`, {})).toBe(null);
  });

  it("compares by whole-string toUpperCase, so 'ß' == 'SS' (GitHub compares ordinally, a character at a time)", () => {
    expect(evaluate("'ß' == 'SS'", {})).toBe(false);
    expect(library("'ß' == 'SS'", {})).toBe(true);
    expect(library("startsWith('straße', 'STRASS')", {})).toBe(true);
  });

  it('has no hashFiles(); crew’s runner has it for literal paths in a job (tests/unit/workflow-runner/composite.test.ts)', () => {
    expect(() => library("hashFiles('**/package-lock.json')", {})).toThrow("Unrecognized function: 'hashFiles'");
    expect(() => evaluate("hashFiles('package-lock.json')", {})).toThrow(/hashFiles\(\) needs a job workspace/);
    expect(() => evaluate("hashFiles('**/package-lock.json')", { github: { workspace: '/tmp' } })).toThrow(/literal paths only/);
  });
});
