import { describe, expect, it } from 'vitest';
import { citationProblem, citationsIn } from '../../../src/domain/citations';
import { semanticEvaluation } from '../../../src/domain/judgment';

describe('citations in the critic’s evidence', () => {
  it('finds paths with lines or ranges, a quote in the same clause, and backticked paths; not URLs, versions or host names', () => {
    expect(citationsIn('test/negative.test.js:5 `sum(-2, -3)` equals -5')).toEqual([
      { raw: 'test/negative.test.js:5', path: 'test/negative.test.js', from: 5, to: 5, quote: 'sum(-2, -3)' },
    ]);
    // A quote counts only right after its citation; prose in between makes it the critic's words.
    expect(citationsIn('test/negative.test.js:5 asserts `sum(-2, -3)` equals -5')).toEqual([
      { raw: 'test/negative.test.js:5', path: 'test/negative.test.js', from: 5, to: 5 },
    ]);
    expect(citationsIn('tests/a.test.ts:4 and the README says `npm test` passes')).toEqual([
      { raw: 'tests/a.test.ts:4', path: 'tests/a.test.ts', from: 4, to: 4 },
    ]);
    expect(citationsIn('src/a.ts:12, see `src/b.ts:3`').map((c) => c.raw)).toEqual(['src/a.ts:12', 'src/b.ts:3']);
    // Code and hosts are not files.
    expect(citationsIn('`JSON.parse`, `res.status`, `http.StatusOK` and `t.Run`; api.example.com:8080')).toEqual([]);
    expect(citationsIn('./src/sum.js:1-3 defines sum; see `README.md`.')).toEqual([
      { raw: './src/sum.js:1-3', path: 'src/sum.js', from: 1, to: 3 },
      { raw: '`README.md`', path: 'README.md' },
    ]);
    expect(citationsIn('ran npm test: 3 passed (version 1.2.3, on api.github.com, see https://example.com/a.js:3)')).toEqual([]);
    expect(citationsIn('The README mentions it.')).toEqual([]);
  });

  it('holds a citation to the file: missing files, lines past the end and quotes the lines lack are named', () => {
    const file = '// sums\nexport const sum = (a, b) => a + b;\n';
    expect(citationProblem({ raw: 'src/sum.js:2', path: 'src/sum.js', from: 2, to: 2, quote: 'a+b' }, file)).toBeNull();
    expect(citationProblem({ raw: 'src/sum.js:1-2', path: 'src/sum.js', from: 1, to: 2 }, file)).toBeNull();
    expect(citationProblem({ raw: '`src/sum.js`', path: 'src/sum.js' }, file)).toBeNull();
    expect(citationProblem({ raw: 'test/negative.test.js:5', path: 'test/negative.test.js', from: 5, to: 5 }, undefined)).toBe(
      'test/negative.test.js:5 cites test/negative.test.js, which is not in the tree crew judged',
    );
    expect(citationProblem({ raw: 'src/sum.js:5', path: 'src/sum.js', from: 5, to: 5 }, file)).toBe('src/sum.js:5 cites line 5, but src/sum.js has 2 lines');
    expect(citationProblem({ raw: 'src/sum.js:2', path: 'src/sum.js', from: 2, to: 2, quote: 'export const sum = (a, b) => ...' }, file)).toBeNull();
    expect(citationProblem({ raw: 'src/sum.js:2', path: 'src/sum.js', from: 2, to: 2, quote: 'a - b' }, file)).toBe(
      'src/sum.js:2 does not contain `a - b` (line 2 is `export const sum = (a, b) => a + b;`)',
    );
  });

  it('a met criterion whose citations do not hold is not met, with crew’s reasons; verified citations are kept for the report', () => {
    const c = { id: 'c1', text: 'negative numbers are tested', kind: 'semantic' as const };
    const given = { criterion: 'c1', met: true, evidence: ['test/negative.test.js:5 asserts `sum(-2, -3)`'], confidence: 0.9 };
    const bad = semanticEvaluation(
      c,
      { ...given, citations: { verified: [], problems: ['test/negative.test.js:5 cites test/negative.test.js, which is not in the tree crew judged'] } },
      new Set(),
    );
    expect(bad.met).toBe(false);
    expect(bad.evidence.at(-1)).toBe('crew checked the evidence: test/negative.test.js:5 cites test/negative.test.js, which is not in the tree crew judged');
    const good = semanticEvaluation(c, { ...given, citations: { verified: ['test/negative.test.js:5 sum(-2, -3)'], problems: [] } }, new Set());
    expect(good).toMatchObject({ met: true, verified: ['test/negative.test.js:5 sum(-2, -3)'] });
  });
});
