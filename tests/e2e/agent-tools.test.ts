import { describe, expect, it } from 'vitest';
import { expectFaithful, play } from './helpers';

/** No tool result the model gets is larger than this (#48). */
const RESULT_LIMIT = 60_000;

/** The large file: 3,000 lines, a function every 100, the constant the critic cites at line 1500. */
const BIG = `${Array.from({ length: 3000 }, (_, i) =>
  i === 1499 ? 'const MAX_WINDOW = 1500;' : i % 100 === 0 ? `export function part${i / 100}(x) {` : `  const v${i} = x + ${i};`,
).join('\n')}\n`;

/** A test run that prints 4,000 passing tests, then a failure and the totals (TAP, as node --test prints it). */
const MANY_TESTS = [
  'const lines = Array.from({ length: 4000 }, (_, i) => `ok ${i + 1} - capitalize case ${i + 1}`);',
  "lines.push('not ok 4001 - slugify keeps dashes', '# tests 4001', '# pass 4000', '# fail 1');",
  "process.stdout.write(lines.join('\\n') + '\\n');",
  'process.exitCode = 1;',
].join('\n');

interface ToolResult {
  content: string;
  is_error?: boolean;
}

/** The tool results a request carries back to the model, in the order the tools were called. */
const resultsIn = (body: { messages: Array<{ content: unknown }> }): ToolResult[] => {
  const last = body.messages.at(-1)!.content;
  return (Array.isArray(last) ? last : []).filter((b: { type?: string }) => b.type === 'tool_result') as ToolResult[];
};

describe('what the agents see (#48, agent-tools scenario)', () => {
  it('the end of long output, numbered reads, the regex people write with totals, edits that answer; the critic’s citation of what it saw holds at once', async () => {
    let worker: ToolResult[][] = [];
    let critic: ToolResult[][] = [];
    let all: ToolResult[] = [];
    let judgment: { verdict: string; evaluations: Array<{ criterion: string; met: boolean; verified?: string[] }> } | undefined;
    const r = await play('agent-tools', {
      edit: (s) => {
        Object.assign(s.repo.files, {
          'src/big.js': BIG,
          'scripts/many-tests.js': MANY_TESTS,
          'src/calc.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n',
          'data/words.txt': `${Array.from({ length: 5000 }, (_, i) => `lorem ipsum ${i}`).join('\n')}\n`,
        });
      },
      hooks: {
        beforeClose: async ({ anthropic, gh }) => {
          const of = (role: string) => anthropic.requests.filter((q) => q.role === role).map((q) => resultsIn(q.body as never));
          worker = of('worker');
          critic = of('critic');
          all = anthropic.requests.flatMap((q) => (q.body as { messages: Array<{ content: unknown }> }).messages.flatMap((m) => resultsIn({ messages: [m] })));
          judgment = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/judgments/judgment_1.json'))!);
        },
      },
    });
    expectFaithful(r);

    const [run, read, limits, many] = worker[1]!;
    // A test run of 4,000 passing tests and a failure: the failing test and the totals reach the model.
    expect(run!.content).toMatch(/^exit code 1; the output had 4,004 lines \([\d,]+ bytes\), over the 30,000 kept, so its middle was cut/);
    expect(run!.content).toContain('not ok 4001 - slugify keeps dashes');
    expect(run!.content).toContain('# pass 4000\n# fail 1');
    // A 3,000-line file: a numbered window with the line count, an outline, the way on.
    expect(read!.content).toMatch(
      /^src\/big\.js: lines 1-\d+ of 3,000 \(the window stops at 25,000 bytes\)\. To read on, call read_file with start_line \d+\./,
    );
    expect(read!.content).toContain('2901: export function part29(x) {');
    expect(read!.content).toMatch(/\n {3}1\texport function part0\(x\) \{\n/);
    // The regex people write, and totals for thousands of hits.
    expect(limits!.content).toContain('src/big.js:1500:const MAX_WINDOW = 1500;');
    expect(many!.content.split('\n')[0]).toBe('5,000 matching lines in 1 file for /lorem/; the first 100 shown:');
    expect(many!.content).toContain('… 4,900 more matching lines not shown');

    const [edited, nearMiss, broken] = worker[2]!;
    // An edit's answer shows the changed lines; a near miss names the closest match; a Python edit that breaks the syntax says so.
    expect(edited!.content).toContain('3\t  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();');
    expect(nearMiss!.is_error).toBe(true);
    expect(nearMiss!.content).toContain(
      'old_string was not found in src/calc.py. The same text, spaced differently (indentation, spaces or line breaks), is at lines 1-2:\n1\tdef add(a, b):\n2\t    return a + b',
    );
    expect(broken!.content).toMatch(/Syntax check \(Python\): the file no longer parses after this change: line 6: SyntaxError: /);
    expect(worker[3]![0]!.content).not.toContain('Syntax check');

    // The critic read a window in the middle of the large file and cited a line as it saw it: verified the first time.
    expect(critic[1]![0]!.content.split('\n').slice(0, 7)).toEqual([
      'src/big.js: lines 1495-1504 of 3,000. To read on, call read_file with start_line 1505.',
      '1495\t  const v1494 = x + 1494;',
      '1496\t  const v1495 = x + 1495;',
      '1497\t  const v1496 = x + 1496;',
      '1498\t  const v1497 = x + 1497;',
      '1499\t  const v1498 = x + 1498;',
      '1500\tconst MAX_WINDOW = 1500;',
    ]);
    expect(r.model.byRole.critic).toBe(2);
    expect(judgment!.verdict).toBe('PASS');
    expect(judgment!.evaluations.find((e) => e.criterion === 'c2')).toMatchObject({ met: true, verified: ['src/big.js:1500 1500\tconst MAX_WINDOW = 1500;'] });
    expect(r.pulls).toHaveLength(1);

    // Every tool result that reached any model was bounded.
    expect(all.length).toBeGreaterThan(8);
    for (const t of all) expect(Buffer.byteLength(typeof t.content === 'string' ? t.content : JSON.stringify(t.content))).toBeLessThan(RESULT_LIMIT);
  }, 300_000);
});
