import { describe, expect, it } from 'vitest';
import { evaluate, type ExprContext } from '../../support/runner/expressions';

const ev = (expr: string, ctx: ExprContext = {}) => evaluate(expr, ctx);

describe('literals', () => {
  it.each([
    ['null', null],
    ['true', true],
    ['false', false],
    ['711', 711],
    ['-9.2', -9.2],
    ['0xff', 255],
    ['0xFF', 255],
    ['0o10', 8],
    ['-2.99e-2', -0.0299],
    ['1.2E+2', 120],
    ['.5', 0.5],
    ['-.5', -0.5],
    ['+3', 3],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ["'Mona the Octocat'", 'Mona the Octocat'],
    ["'It''s open source!'", "It's open source!"],
    ["''", ''],
    ["''''", "'"],
  ])('%s', (expr, expected) => {
    expect(ev(expr)).toBe(expected);
  });

  it('NaN', () => {
    expect(ev('NaN')).toBeNaN();
  });

  it('ignores surrounding and inner whitespace', () => {
    expect(ev('  1   ==\n1  ')).toBe(true);
  });
});

describe('logical operators', () => {
  it('&& returns the first falsy operand, or the last one', () => {
    expect(ev('true && 1 && 2')).toBe(2);
    expect(ev('true && 0 && 2')).toBe(0);
    expect(ev("true && 'a' && 'b'")).toBe('b');
    expect(ev("true && '' && 'asdf'")).toBe('');
    expect(ev('null && true')).toBe(null);
    expect(ev('obj && 123', { env: {}, obj: {} })).toBe(123);
  });

  it('|| returns the first truthy operand, or the last one', () => {
    expect(ev('0 || 0 || 2 || 3')).toBe(2);
    expect(ev('false || 0')).toBe(0);
    expect(ev("false || '' || 'a' || 'b'")).toBe('a');
    expect(ev('false || null')).toBe(null);
    expect(ev('null || true')).toBe(true);
  });

  it('short-circuits: the right side is not evaluated', () => {
    expect(ev("false && fromJSON('not json')")).toBe(false);
    expect(ev("true || fromJSON('not json')")).toBe(true);
    expect(() => ev("true && fromJSON('not json')")).toThrow(/fromJSON/);
  });

  it('! always yields a boolean', () => {
    expect(ev('!0')).toBe(true);
    expect(ev("!'x'")).toBe(false);
    expect(ev('!!null')).toBe(false);
    expect(ev('!obj', { obj: {} })).toBe(false);
  });
});

describe('precedence (GitHub: () [] . > ! > < <= > >= > == != > && > ||)', () => {
  const foo = { foo: { bar: true } };
  it.each([
    ['!foo.bar', foo, false],
    ['(!foo).bar', foo, null],
    ['!2 < 3', {}, true],
    ['!(2 < 3)', {}, false],
    ['3 < 2 < 1', {}, true],
    ['3 < (2 < 1)', {}, false],
    ['2 > 2 > 0', {}, false],
    ['2 > (2 > 0)', {}, true],
    ['2 <= 3 == true', {}, true],
    ['2 <= (3 == true)', {}, false],
    ['2 == 2 == 1', {}, true],
    ['2 == (2 == 1)', {}, false],
    ['2 == 2 != 0', {}, true],
    ['1 == 1 && 2', {}, 2],
    ['1 == (1 && 2)', {}, false],
    ["'a' == 'a' && 'b'", {}, 'b'],
    ['false && 0 || null', {}, null],
    ['false && (0 || null)', {}, false],
    ['1 || 2 && 3', {}, 1],
    ['(1 || 2) && 3', {}, 3],
    ["3 > n['bar']", { n: { bar: 2 } }, true],
  ])('%s', (expr, ctx, expected) => {
    expect(ev(expr, ctx as ExprContext)).toBe(expected);
  });
});

describe('property access and indexing', () => {
  const ctx: ExprContext = {
    github: {
      event: { issue: { number: 7, title: 'Add X' }, pull_request: null },
      Ref: 'refs/heads/main',
    },
    steps: { 'my-step': { outputs: { 'result-json': '{}' } } },
    matrix: { list: ['zero', 'one', 'two'], obj: { true: 'yes', null: 'nothing', format: 'fmt' } },
  };

  it('dereferences nested objects', () => {
    expect(ev('github.event.issue.number', ctx)).toBe(7);
    expect(ev("github['event']['issue']['title']", ctx)).toBe('Add X');
    expect(ev('steps.my-step.outputs.result-json', ctx)).toBe('{}');
  });

  it('missing properties are null, and so is anything below them', () => {
    expect(ev('github.event.comment', ctx)).toBe(null);
    expect(ev('github.event.comment.body', ctx)).toBe(null);
    expect(ev('github.event.pull_request.head.ref', ctx)).toBe(null);
    expect(ev('github.event.issue.title.length', ctx)).toBe(null);
    expect(ev('matrix.list.length', ctx)).toBe(null);
    expect(ev('(1).x')).toBe(null);
  });

  it('known contexts the caller did not provide are null', () => {
    expect(ev('vars.SOMETHING', ctx)).toBe(null);
    expect(ev('needs.route.outputs.run', ctx)).toBe(null);
  });

  it('property names and context names are case-insensitive', () => {
    expect(ev('github.ref', ctx)).toBe('refs/heads/main');
    expect(ev('GITHUB.EVENT.Issue.NUMBER', ctx)).toBe(7);
    expect(ev("github['REF']", ctx)).toBe('refs/heads/main');
  });

  it('keywords and function names are valid property names', () => {
    expect(ev('matrix.obj.true', ctx)).toBe('yes');
    expect(ev('matrix.obj.null', ctx)).toBe('nothing');
    expect(ev('matrix.obj.format', ctx)).toBe('fmt');
  });

  it('indexes arrays with coerced numbers; out of range is null', () => {
    expect(ev('matrix.list[0]', ctx)).toBe('zero');
    expect(ev('matrix.list[true]', ctx)).toBe('one');
    expect(ev("matrix.list[' 0x02 ']", ctx)).toBe('two');
    expect(ev('matrix.list[null]', ctx)).toBe('zero');
    expect(ev('matrix.list[3]', ctx)).toBe(null);
    expect(ev('matrix.list[-1]', ctx)).toBe(null);
    expect(ev("matrix.list['x']", ctx)).toBe(null);
  });

  it('dereferences function results and parenthesised expressions', () => {
    expect(ev(`fromJSON('{"one": "one val"}').one`)).toBe('one val');
    expect(ev(`(fromJSON('{"one": "one val"}')).one`)).toBe('one val');
    expect(ev(`fromJSON('[[1,2],[3,4]]')[1][0]`)).toBe(3);
  });
});

describe('object filters (*)', () => {
  const ctx: ExprContext = {
    github: {
      event: {
        issue: { labels: [{ name: 'bug' }, { name: 'crew: waiting' }, { color: 'red' }] },
      },
    },
    fruits: [
      { name: 'apple', tags: ['red', 'sweet'] },
      { name: 'orange', tags: ['orange'] },
      { name: 'pear', tags: [] },
    ],
    vegetables: { carrot: { ford: 1 }, pea: { ford: 2 }, leek: { chevy: 3 } },
  };

  it('collects a property from every array element, skipping elements without it', () => {
    expect(ev('github.event.issue.labels.*.name', ctx)).toEqual(['bug', 'crew: waiting']);
    expect(ev('fruits.*.name', ctx)).toEqual(['apple', 'orange', 'pear']);
  });

  it('works on object values and with bracket syntax', () => {
    expect(ev('vegetables.*.ford', ctx)).toEqual([1, 2]);
    expect(ev('fruits[*].name', ctx)).toEqual(['apple', 'orange', 'pear']);
    expect(ev("vegetables['*']", ctx)).toBe(null);
  });

  it('a second * flattens one level', () => {
    expect(ev('fruits.*.tags.*', ctx)).toEqual(['red', 'sweet', 'orange']);
    expect(ev('fruits.*.tags[0]', ctx)).toEqual(['red', 'orange']);
  });

  it('filtering a non-collection yields an empty array', () => {
    expect(ev('github.event.comment.labels.*.name', ctx)).toEqual([]);
  });

  it('returns a plain array that indexes normally afterwards', () => {
    const names = ev('fruits.*.name', ctx);
    expect(Array.isArray(names)).toBe(true);
    expect(ev('names[1]', { names })).toBe('orange');
  });
});
