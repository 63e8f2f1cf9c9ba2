import { describe, expect, it } from 'vitest';
import { evaluate, ExpressionError, type ExprContext, type StatusFunctions } from '../../support/runner/expressions';

const ev = (expr: string, ctx: ExprContext = {}, status?: StatusFunctions) => evaluate(expr, ctx, status);

describe('contains', () => {
  const ctx: ExprContext = {
    github: { event: { issue: { labels: [{ name: 'bug' }, { name: 'Crew: Waiting' }] } } },
    list: ['push', 'pull_request', 1, true, null],
  };

  it('string search is a case-insensitive substring test', () => {
    expect(ev("contains('Hello world', 'llo')")).toBe(true);
    expect(ev("contains('Hello world', 'WORLD')")).toBe(true);
    expect(ev("contains('Hello world', 'xyz')")).toBe(false);
    expect(ev("contains('abc', '')")).toBe(true);
  });

  it('casts non-string primitives to strings', () => {
    expect(ev('contains(12345, 34)')).toBe(true);
    expect(ev("contains(true, 'ru')")).toBe(true);
    expect(ev("contains(null, '')")).toBe(true);
  });

  it('array search matches elements with loose equality', () => {
    expect(ev("contains(list, 'PUSH')", ctx)).toBe(true);
    expect(ev("contains(list, 'push_request')", ctx)).toBe(false);
    expect(ev("contains(list, '1')", ctx)).toBe(true);
    expect(ev('contains(list, null)', ctx)).toBe(true);
    expect(ev('contains(fromJSON(\'["a","b"]\'), \'B\')')).toBe(true);
  });

  it('works with object filters', () => {
    expect(ev("contains(github.event.issue.labels.*.name, 'crew: waiting')", ctx)).toBe(true);
    expect(ev("contains(github.event.issue.labels.*.name, 'crew')", ctx)).toBe(false);
    expect(ev("contains(github.event.pull_request.labels.*.name, 'bug')", ctx)).toBe(false);
  });

  it('an object as the search value never contains anything', () => {
    expect(ev("contains(github, 'event')", ctx)).toBe(false);
  });
});

describe('startsWith / endsWith', () => {
  it('are case-insensitive', () => {
    expect(ev("startsWith('Hello world', 'he')")).toBe(true);
    expect(ev("startsWith('Hello world', 'world')")).toBe(false);
    expect(ev("endsWith('Hello world', 'LD')")).toBe(true);
    expect(ev("endsWith('Hello world', 'hello')")).toBe(false);
    expect(ev("startsWith('/Crew please', '/crew')")).toBe(true);
  });

  it('cast primitives and reject arrays/objects', () => {
    expect(ev('startsWith(12345, 12)')).toBe(true);
    expect(ev("endsWith(true, 'UE')")).toBe(true);
    expect(ev("startsWith(null, '')")).toBe(true);
    expect(ev("startsWith(a, 'A')", { a: ['a'] })).toBe(false);
  });
});

describe('format', () => {
  it('replaces {N} placeholders with string forms', () => {
    expect(ev("format('Hello {0} {1} {2}', 'Mona', 'the', 'Octocat')")).toBe('Hello Mona the Octocat');
    expect(ev("format('123{0}456{0}789', 'abc')")).toBe('123abc456abc789');
    expect(ev("format('{0}-{1}-{2}-{3}', null, true, 1.5, a)", { a: [] })).toBe('-true-1.5-Array');
    expect(ev('format(null)')).toBe('');
  });

  it('escapes braces by doubling them', () => {
    expect(ev("format('{{Hello {0} {1} {2}!}}', 'Mona', 'the', 'Octocat')")).toBe('{Hello Mona the Octocat!}');
    expect(ev("format('{{0}}', 'abc')")).toBe('{0}');
    expect(ev("format('{{{{0}}}}', 'abc')")).toBe('{{0}}');
    expect(ev("format('}}{{}}', 'abc')")).toBe('}{}');
    expect(ev("format('{{{0}}}', 'abc')")).toBe('{abc}');
  });

  it.each(["format('{0')", "format('{0}}', '')", "format('}{0}', '')", "format('{0}{', '')", "format('{x}', '')"])('%s is an invalid format string', (expr) => {
    expect(() => ev(expr)).toThrow(/Invalid format string/);
  });

  it('rejects placeholders without a matching argument', () => {
    expect(() => ev("format('{0}{1}', 'abc')")).toThrow(/references \{1\} but only 1 argument\(s\) provided/);
  });
});

describe('join', () => {
  const ctx: ExprContext = {
    github: { event: { issue: { labels: [{ name: 'bug' }, { name: 'enhancement' }, { name: 'help wanted' }] } } },
    mixed: [null, true, 123.456, 'abc', [], {}],
    items: ['a', 'b', 'c'],
  };

  it("defaults to ',' and accepts a separator", () => {
    expect(ev('join(items)', ctx)).toBe('a,b,c');
    expect(ev("join(items, ' | ')", ctx)).toBe('a | b | c');
    expect(ev("join(github.event.issue.labels.*.name, ', ')", ctx)).toBe('bug, enhancement, help wanted');
  });

  it('stringifies elements and separators', () => {
    expect(ev('join(mixed)', ctx)).toBe(',true,123.456,abc,Array,Object');
    expect(ev('join(items, null)', ctx)).toBe('abc');
    expect(ev('join(items, 1)', ctx)).toBe('a1b1c');
    expect(ev('join(items, items)', ctx)).toBe('a,b,c');
  });

  it('a primitive is returned as its string; an object gives the empty string', () => {
    expect(ev("join('abc')")).toBe('abc');
    expect(ev('join(null)')).toBe('');
    expect(ev('join(o)', { o: { k: 'v' } })).toBe('');
  });
});

describe('toJSON / fromJSON', () => {
  it('toJSON pretty-prints with two spaces', () => {
    expect(ev('toJSON(o)', { o: { a: [1, 'x', null], b: {} } })).toBe('{\n  "a": [\n    1,\n    "x",\n    null\n  ],\n  "b": {}\n}');
    expect(ev('toJSON(null)')).toBe('null');
    expect(ev("toJSON('abc''def')")).toBe('"abc\'def"');
    expect(ev('toJSON(-0)')).toBe('0');
    expect(ev('toJSON(e)', { e: [] })).toBe('[]');
  });

  it('fromJSON parses every JSON type', () => {
    expect(ev("fromJSON('null')")).toBe(null);
    expect(ev("fromJSON('true')")).toBe(true);
    expect(ev("fromJSON('1234.5')")).toBe(1234.5);
    expect(ev(`fromJSON('"abc"')`)).toBe('abc');
    expect(ev(`fromJSON('[1, "a", {"b": [true]}]')`)).toEqual([1, 'a', { b: [true] }]);
    expect(ev("fromJSON(' 42 ') == 42")).toBe(true);
  });

  it('fromJSON round-trips toJSON', () => {
    const tasks = [
      { id: 'a', deps: [] },
      { id: 'b', deps: ['a'] },
    ];
    expect(ev('fromJSON(toJSON(t))', { t: tasks })).toEqual(tasks);
  });

  it('fromJSON rejects empty and malformed input', () => {
    expect(() => ev("fromJSON('')")).toThrow(/fromJSON.*empty input/);
    expect(() => ev('fromJSON(needs.route.outputs.tasks)', {})).toThrow(/fromJSON.*empty input/);
    expect(() => ev("fromJSON('{oops')")).toThrow(ExpressionError);
  });
});

describe('hashFiles', () => {
  it('needs a workspace, and takes literal paths only', () => {
    expect(() => ev("hashFiles('package-lock.json')")).toThrow(/hashFiles\(\) needs a job workspace/);
  });
});

describe('case', () => {
  it('returns the value after the first true predicate, else the default', () => {
    expect(ev("case(false, 'a', true, 'b', 'c')")).toBe('b');
    expect(ev("case(1 == 2, 'a', 'c')")).toBe('c');
    expect(ev("case(true, fromJSON('[1]'), 'c')")).toEqual([1]);
  });

  it('needs boolean predicates and an odd argument count', () => {
    expect(() => ev("case(1, 'a', 'b')")).toThrow(/must evaluate to a boolean/);
    expect(() => ev("case(true, 'a', false, 'b')")).toThrow(/odd number of parameters/);
  });
});

describe('function names are case-insensitive', () => {
  it.each([
    "CONTAINS('abc', 'B')",
    "StartsWith('abc', 'a')",
    "endswith('abc', 'c')",
    "FORMAT('{0}', 1) == '1'",
    "JOIN(fromjson('[1]')) == '1'",
    "toJson(1) == '1'",
    "FromJSON('true')",
  ])('%s', (expr) => {
    expect(ev(expr)).toBe(true);
  });
});

describe('status functions', () => {
  const status = (s: Partial<Record<'success' | 'failure' | 'cancelled', boolean>>): StatusFunctions => ({
    success: () => s.success ?? true,
    failure: () => s.failure ?? false,
    cancelled: () => s.cancelled ?? false,
  });

  it('delegate to the provided status', () => {
    expect(ev('success()', {}, status({ success: true }))).toBe(true);
    expect(ev('success()', {}, status({ success: false, failure: true }))).toBe(false);
    expect(ev('failure()', {}, status({ success: false, failure: true }))).toBe(true);
    expect(ev('cancelled()', {}, status({ cancelled: true }))).toBe(true);
    expect(ev('Always()', {}, status({ success: false, cancelled: true }))).toBe(true);
  });

  it('always() consults status.always when given', () => {
    expect(ev('always()', {}, { ...status({}), always: () => false })).toBe(false);
  });

  it('take no arguments', () => {
    expect(() => ev('success(1)', {}, status({}))).toThrow(/Too many parameters supplied.*'success'/);
  });

  it('are rejected outside if: (no status supplied)', () => {
    expect(() => ev('success()')).toThrow(/only available in if: conditions/);
  });
});
