import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { integrationBranch, runOfIntegrationBranch } from '../../../src/domain/refs';

describe("crew's integration branch", () => {
  it('is parsed with the bounds of the names crew may write', () => {
    expect(runOfIntegrationBranch(integrationBranch(12, 3))).toEqual({ issue: 12, run: 3 });
    expect(runOfIntegrationBranch(integrationBranch(9_999_999_999, 99_999))).toEqual({ issue: 9_999_999_999, run: 99_999 });
    for (const b of [
      'crew/12/r0/integration',
      'crew/012/r1/integration',
      'crew/1/r100000/integration',
      'crew/12/r3/integration/x',
      'crew/local-1/result',
      'x/crew/1/r1/integration',
    ])
      expect(runOfIntegrationBranch(b), b).toBeUndefined();
    // Every name it accepts is one crew may write, and the other way round.
    expect(() => integrationBranch(1, 100_000)).toThrow();
  });

  it('is parsed in one place: domain/refs.ts', () => {
    const root = join(__dirname, '..', '..', '..', 'src');
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    // A regular expression literal that spells the integration leaf (`…\/integration$/` or `|integration|`).
    const parsers = files(root).flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\/\^crew\\\/.*integration/.test(line) ? [`${relative(root, f)}:${i + 1}`] : [])),
    );
    expect(parsers.filter((p) => !p.startsWith('domain/refs.ts:') && !p.startsWith('domain/retention.ts:'))).toEqual([]);
  });
});
