import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { evaluateValue, interpolate, type ExprContext } from '../../support/runner/expressions';

const ctx: ExprContext = {
  github: { repository: 'acme/widgets', event: { issue: { number: 42 } } },
  env: { NAME: 'Mona' },
  needs: {
    route: { outputs: { run: 'true', tasks: '[{"id":"a","deps":[]},{"id":"b","deps":["a"]}]', count: '3' } },
  },
  x: 'value',
};

describe('interpolate', () => {
  it('leaves plain strings untouched', () => {
    expect(interpolate('echo hello', ctx)).toBe('echo hello');
    expect(interpolate('', ctx)).toBe('');
    expect(interpolate('a }} b {{ c', ctx)).toBe('a }} b {{ c');
  });

  it('replaces several expressions with their string forms', () => {
    expect(interpolate('${{ github.repository }}#${{ github.event.issue.number }} by ${{ env.NAME }}', ctx)).toBe('acme/widgets#42 by Mona');
    expect(interpolate('[${{ null }}][${{ true }}][${{ 1.50 }}][${{ github.event }}][${{ fromJSON(needs.route.outputs.tasks) }}]', ctx)).toBe(
      '[][true][1.5][Object][Array]',
    );
  });

  it('does not need spaces inside the braces', () => {
    expect(interpolate('${{x}}${{x}}', ctx)).toBe('valuevalue');
  });

  it('braces inside string literals do not close the expression', () => {
    expect(interpolate("${{ format('{0}', x) }}", ctx)).toBe('value');
    expect(interpolate("${{ format('{{0}}', x) }}", ctx)).toBe('{0}');
    expect(interpolate("a${{ '}}' }}b", ctx)).toBe('a}}b');
    expect(interpolate("${{ format('{{{0}}}', x) }}", ctx)).toBe('{value}');
    expect(interpolate("${{ 'It''s }}' }}", ctx)).toBe("It's }}");
  });

  it('keeps text around expressions, quotes included', () => {
    expect(interpolate("'${{ format('{0}', x) }}'", ctx)).toBe("'value'");
    expect(interpolate('echo "${{ env.NAME }}" > out', ctx)).toBe('echo "Mona" > out');
  });

  it("handles the YAML single-quoted form '${{ format(''{0}'', x) }}'", () => {
    const doc = parseYaml("run: '${{ format(''{0}'', x) }}'") as { run: string };
    expect(doc.run).toBe("${{ format('{0}', x) }}");
    expect(interpolate(doc.run, ctx)).toBe('value');
  });

  it('multi-line scripts', () => {
    const script = 'set -e\necho "${{ github.repository }}"\nif [ "${{ needs.route.outputs.run }}" = true ]; then exit 0; fi\n';
    expect(interpolate(script, ctx)).toBe('set -e\necho "acme/widgets"\nif [ "true" = true ]; then exit 0; fi\n');
  });
});

describe('evaluateValue', () => {
  it('a string that is exactly one expression keeps the typed value', () => {
    expect(evaluateValue('${{ fromJSON(needs.route.outputs.tasks) }}', ctx)).toEqual([
      { id: 'a', deps: [] },
      { id: 'b', deps: ['a'] },
    ]);
    expect(evaluateValue('${{ fromJSON(needs.route.outputs.count) }}', ctx)).toBe(3);
    expect(evaluateValue('${{ github.event.issue.number }}', ctx)).toBe(42);
    expect(evaluateValue('${{ null }}', ctx)).toBe(null);
    expect(evaluateValue('${{ needs.route.outputs.run == true }}', ctx)).toBe(false);
    expect(evaluateValue("${{ needs.route.outputs.run == 'TRUE' }}", ctx)).toBe(true);
  });

  it('other strings are interpolated', () => {
    expect(evaluateValue('#${{ github.event.issue.number }}', ctx)).toBe('#42');
    expect(evaluateValue(' ${{ github.event.issue.number }}', ctx)).toBe(' 42');
    expect(evaluateValue('plain', ctx)).toBe('plain');
  });

  it('walks matrices deeply', () => {
    const workflow = parseYaml(`
strategy:
  fail-fast: false
  max-parallel: 2
  matrix:
    task: \${{ fromJSON(needs.route.outputs.tasks) }}
    include:
      - label: issue-\${{ github.event.issue.number }}
        ids: \${{ fromJSON(needs.route.outputs.tasks).*.id }}
`) as { strategy: unknown };
    expect(evaluateValue(workflow.strategy, ctx)).toEqual({
      'fail-fast': false,
      'max-parallel': 2,
      matrix: {
        task: [
          { id: 'a', deps: [] },
          { id: 'b', deps: ['a'] },
        ],
        include: [{ label: 'issue-42', ids: ['a', 'b'] }],
      },
    });
  });

  it('evaluates with:/env: maps and leaves non-strings alone', () => {
    expect(evaluateValue({ repo: '${{ github.repository }}', issue: '${{ github.event.issue.number }}', retries: 3, dry: false, none: null }, ctx)).toEqual({
      repo: 'acme/widgets',
      issue: 42,
      retries: 3,
      dry: false,
      none: null,
    });
  });

  it('does not mutate its input', () => {
    const input = { a: ['${{ x }}'] };
    evaluateValue(input, ctx);
    expect(input).toEqual({ a: ['${{ x }}'] });
  });
});
