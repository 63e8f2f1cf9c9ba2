import { describe, expect, it } from 'vitest';
import type { Judgment } from '../../src/domain/judgment';
import type { ScriptEntry } from '../support/anthropic/script';
import type { Scenario } from '../support/scenario/schema';
import { crewComments, expectFaithful, play } from './helpers';

type Entry = ScriptEntry;
type Hooks = NonNullable<Parameters<typeof play>[1]>['hooks'];
const stateFile = async (gh: { repo: { readFile(ref: string, path: string): Promise<string | undefined> } }, path: string) =>
  (await gh.repo.readFile('refs/heads/crew/state', path)) ?? '';

/** Collects the run's judgments and every worker prompt before the offline world closes. */
function collect() {
  const got = { judgments: [] as Judgment[], workerPrompts: new Map<string, string[]>(), criticPrompts: [] as string[], summary: '', readme: '' };
  const hooks: Hooks = {
    beforeClose: async ({ gh, anthropic }) => {
      for (let i = 1; i <= 5; i++) {
        const text = await stateFile(gh, `issue-1/run-1/judgments/judgment_${i}.json`);
        if (text) got.judgments.push(JSON.parse(text) as Judgment);
      }
      got.summary = await stateFile(gh, 'issue-1/run-1/report_summary.md');
      got.readme = (await gh.repo.readFile('refs/heads/crew/1/r1/integration', 'README.md')) ?? '';
      for (const q of anthropic.requests) {
        const first = JSON.stringify(q.body.messages[0]);
        if (q.role === 'critic' && q.turn === 0) got.criticPrompts.push(first);
        if (q.role === 'worker' && q.turn === 0) got.workerPrompts.set(`${q.task}@${got.workerPrompts.size}`, [first]);
      }
    },
  };
  return { got, hooks };
}

describe('the critic gate', () => {
  it('command criteria: exit 0 met, exit 1 not met, exit 2 an error; the FAIL goes back with reasons, then to the maintainer, who accepts', async () => {
    const { got, hooks } = collect();
    const r = await play('critic-commands', { hooks });
    expectFaithful(r);
    expect(got.judgments.map((j) => j.evaluations.map((e) => e.met))).toEqual([
      [true, false, null],
      [true, false, null],
    ]);
    const c3 = got.judgments[0]!.evaluations[2]!;
    expect(c3.error).toBe('the command exited with 2, which means it could not check the criterion');
    expect(c3.evidence.join('\n')).toContain("ls: cannot access 'docs'");
    // The second attempt was told why, criterion by criterion.
    const prompts = [...got.workerPrompts.values()].map((p) => p[0]!);
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain('The critic judged the integrated work FAIL (iteration 1)');
    expect(prompts[1]).toContain('c2 \\"There is a changelog\\": not met');
    expect(got.criticPrompts[1]).toContain('Judgment 2 of at most 2');
    // After max_iterations, a person decides.
    const ask = crewComments(r).find((c) => c.body.startsWith('**crew needs a decision**'))!;
    expect(ask.body).toContain('the critic judged FAIL 2 times, the limit (max_iterations: 2)');
    expect(ask.body).toContain('| ⚠️ **c3** There is a docs folder | error: the command exited with 2');
    expect(ask.body).toContain('| ❌ **c2** There is a changelog | not met | 1.00 |');
    // Accepted: the PR opens with the failing criteria at its top and is not merged, although auto_merge is on.
    expect(r.pulls).toHaveLength(1);
    const pr = r.pulls[0]!;
    expect(pr.body!.startsWith('> [!WARNING]\n> @maintainer accepted this with `/crew accept` although the critic judged it **FAIL** (iteration 2).')).toBe(
      true,
    );
    expect(pr.body).toContain('> - ❌ **c2** There is a changelog: not met');
    expect(pr.merged).toBe(false);
    expect(got.summary).toMatch(/^---\n[\s\S]*status: partial\n[\s\S]*quality: RED\n[\s\S]*completeness: 33\n/);
    expect(r.issue.labels).toEqual([]);
  }, 360_000);

  it('a test deleted, a test skipped and the test script loosened to make `npm test` pass are caught: FAIL with the evidence, and no PR', async () => {
    const { got, hooks } = collect();
    const r = await play('critic-fraud', { hooks });
    expectFaithful(r);
    expect(got.judgments).toHaveLength(1);
    const j = got.judgments[0]!;
    expect(j.evaluations.map((e) => e.met)).toEqual([true]); // npm test itself passes
    expect(j.verdict).toBe('FAIL');
    expect(j.adversarial).toEqual([
      {
        rule: 'test-command-changed',
        file: 'package.json',
        line: 8,
        evidence: 'package.json:8 changes the test script from `node --test` to `node --test || true`',
      },
      { rule: 'deleted-test', file: 'test/index.test.js', evidence: 'the test file test/index.test.js was deleted (7 lines)' },
      {
        rule: 'skipped-test',
        file: 'test/later.test.js',
        line: 2,
        evidence: "test/later.test.js:2 skips or narrows tests: `test.skip('capitalize keeps the rest', () => {});`",
      },
      // The runs themselves (#32): the test that passed on the base did not run on the head.
      {
        rule: 'lost-test',
        file: 'test/index.test.js',
        evidence:
          "`npm test`: test/index.test.js › capitalize upper-cases the first letter passed on the base and is missing on the head (it did not run) (the change removed line 5 of the base's test/index.test.js, which names it)",
      },
    ]);
    expect(crewComments(r).some((c) => c.body.includes('- deleted-test: the test file test/index.test.js was deleted (7 lines)'))).toBe(true);
    expect(r.pulls).toEqual([]);
    expect(r.issue.labels).toEqual(['crew: waiting']);
  }, 360_000);

  it('tests deleted and emptied behind a `.gitattributes` of `*.js -diff` are still caught: the diff is read as committed, FAIL with the evidence, and no PR', async () => {
    const { got, hooks } = collect();
    const r = await play('critic-blinded', { hooks });
    expectFaithful(r);
    expect(got.judgments).toHaveLength(1);
    const j = got.judgments[0]!;
    expect(j.evaluations.map((e) => e.met)).toEqual([true]); // with both tests gone, `npm test` passes
    expect(j.verdict).toBe('FAIL');
    expect(j.adversarial.map((f) => [f.rule, f.file])).toEqual([
      ['git-attributes-changed', '.gitattributes'],
      ['weakened-assertions', 'test/index.test.js'],
      ['deleted-test', 'test/rest.test.js'],
      // The test of index.test.js passed on the base and no longer runs; rest.test.js's failed on the base, so it is not lost (#32).
      ['lost-test', 'test/index.test.js'],
    ]);
    expect(j.adversarial[2]!.evidence).toBe('the test file test/rest.test.js was deleted (7 lines)');
    expect(j.overallReason).toContain('4 adversarial findings (git-attributes-changed, weakened-assertions, deleted-test, lost-test)');
    expect(j.tests![0]!.counts).toMatchObject({ passed: 0, lost: 1, fixed: 0 });
    // The reason is shown where the maintainer decides.
    const ask = crewComments(r).find((c) => c.body.startsWith('**crew needs a decision**'))!;
    expect(ask.body).toContain('- git-attributes-changed: .gitattributes:1 adds git attributes (now: `*.js -diff`)');
    expect(ask.body).toContain('- deleted-test: the test file test/rest.test.js was deleted (7 lines)');
    expect(ask.body).toContain("test/index.test.js:6 `assert.equal(capitalize('hello'), 'Hello');`");
    expect(r.pulls).toEqual([]);
    expect(r.issue.labels).toEqual(['crew: waiting']);
  }, 360_000);

  it('a hollow test: the test the task added asserts nothing, so `npm test` passes; an adversarial finding, FAIL with the evidence, and no PR', async () => {
    const { got, hooks } = collect();
    const r = await play('critic-hollow-test', { hooks });
    expectFaithful(r);
    expect(got.judgments).toHaveLength(1);
    const j = got.judgments[0]!;
    expect(j.evaluations.map((e) => e.met)).toEqual([true]); // npm test passes: the new test checks nothing
    expect(j.verdict).toBe('FAIL');
    expect(j.adversarial).toEqual([
      {
        rule: 'hollow-test',
        file: 'test/negative.test.js',
        line: 4,
        evidence: 'test/negative.test.js:4 the test `capitalize keeps working` asserts nothing, so it passes whatever the code does',
      },
    ]);
    const ask = crewComments(r).find((c) => c.body.startsWith('**crew needs a decision**'))!;
    expect(ask.body).toContain('- hollow-test: test/negative.test.js:4 the test `capitalize keeps working` asserts nothing');
    expect(r.pulls).toEqual([]);
  }, 360_000);

  it('a postinstall script the task added is a finding for a person: the critic passes, the PR lists it under "Look at before merging", and crew does not auto-merge it', async () => {
    const { got, hooks } = collect();
    const r = await play('critic-lifecycle', { hooks });
    expectFaithful(r);
    expect(got.judgments).toHaveLength(1);
    const j = got.judgments[0]!;
    expect(j.evaluations.map((e) => e.met)).toEqual([true]);
    expect(j.verdict).toBe('PASS');
    const evidence =
      'package.json:9 adds the `postinstall` script `node scripts/telemetry.js`, which npm runs by itself (on install, test, pack or publish): look at it before merging';
    expect(j.adversarial).toEqual([{ rule: 'lifecycle-script-changed', file: 'package.json', line: 9, evidence }]);
    expect(r.pulls).toHaveLength(1);
    const pr = r.pulls[0]!;
    expect(pr.body).toContain(
      `### ⚠️ Look at before merging\ncrew's adversarial checks found these in the change; each needs a person's review:\n- [ ] **lifecycle-script-changed** in \`package.json\`: ${evidence}`,
    );
    expect(pr.merged).toBe(false);
    expect(pr.comments.map((c) => c.body).join('\n')).toContain(
      'a person must look at lifecycle-script-changed in `package.json` first (listed under "Look at before merging"), so crew leaves the merge to them',
    );
    expect(r.issue.labels).not.toContain('crew: waiting');
  }, 360_000);

  it('a semantic criterion judged on evidence: FAIL sends the documentation task back, the retry fixes it, and the second judgment passes', async () => {
    const { got, hooks } = collect();
    const r = await play('scenarios/demo.yaml', { hooks, edit: (s) => failThenPass(s) });
    expectFaithful(r);
    expect(got.judgments.map((j) => j.verdict)).toEqual(['FAIL', 'PASS']);
    expect(got.judgments[0]!.evaluations[1]).toMatchObject({ criterion: 'c2', met: false, tasks: ['t3'] });
    expect(got.judgments[1]!.evaluations[1]!.evidence[0]).toContain('README.md:');
    // Only t3 ran again, and it was told the critic's reasons.
    const prompts = [...got.workerPrompts.entries()];
    expect(prompts.filter(([k]) => k.startsWith('t3@'))).toHaveLength(2);
    expect(prompts.filter(([k]) => k.startsWith('t1@'))).toHaveLength(1);
    expect(prompts.filter(([k]) => k.startsWith('t3@'))[1]![1][0]).toContain('The README lists slugify but shows no example');
    expect(got.criticPrompts[1]).toContain('## Why the previous judgment failed');
    expect(got.readme).toContain("- `slugify(text)`: turns a title into a URL slug, e.g. `slugify('Hello, World!')` is `'hello-world'`.");
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.body).not.toContain('[!WARNING]');
    expect(r.pulls[0]!.body).toContain('✅ The README documents slugify with an example');
    const plan = crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!;
    expect(plan.body).toContain('**Done criteria** · critic: ✅ PASS (iteration 2)');
    expect(got.summary).toMatch(/status: success\n/);
  }, 360_000);

  it('re-run scoping: `npm test` fails in code the first task wrote; its output names that code, so that task goes back, not the README task the critic blamed', async () => {
    const { got, hooks } = collect();
    const r = await play('scenarios/demo.yaml', { hooks, edit: (s) => brokenCodeFirst(s) });
    expectFaithful(r);
    expect(got.judgments.map((j) => j.verdict)).toEqual(['FAIL', 'PASS']);
    const c1 = got.judgments[0]!.evaluations[0]!;
    expect(c1).toMatchObject({ criterion: 'c1', kind: 'command', met: false });
    expect(c1.evidence.join('\n')).toContain('src/slugify.js');
    // Localisation: t1's branch alone passes (no test calls slugify yet); t2's, built on it, fails in t1's code.
    expect(got.judgments[0]!.localisation?.[0]?.outcome).toEqual({ kind: 'tasks', tasks: ['t1'], how: 'code', shownBy: ['t2'] });
    const prompts = [...got.workerPrompts.keys()].map((k) => k.split('@')[0]);
    // t1 wrote the code the output names: it runs again. The stack also names t2's test, the
    // caller, and t3 changed only the README: neither runs again, although the critic named both.
    expect(prompts.filter((t) => t === 't1')).toHaveLength(2);
    expect(prompts.filter((t) => t === 't2')).toHaveLength(1);
    expect(prompts.filter((t) => t === 't3')).toHaveLength(1);
    expect(r.pulls).toHaveLength(1);
  }, 360_000);
});

/** The demo critic's first reply (it searches the README), then a judgment: the critic entry for one judgment. */
function judgedAs(critic: Entry, contains: string, judgment: Record<string, unknown>): Entry {
  return {
    role: 'critic',
    contains,
    replies: [critic.replies[0]!, { content: [{ type: 'tool_use' as const, name: 'submit_judgment', input: judgment }] }],
  } as unknown as Entry;
}

/** The demo, with a first slugify that throws and a critic that blames the tests and the README for `npm test` failing. */
function brokenCodeFirst(s: Scenario): void {
  const model = s.model as { entries: Entry[] };
  const entries = model.entries;
  const t1 = entries.find((e) => e.role === 'worker' && e.task === 't1')!;
  const secondTry = structuredClone(t1);
  secondTry.attempt = 2;
  // The retry starts from its own pushed work: the re-export is there already.
  secondTry.replies = secondTry.replies.filter((r) => !r.content.some((c) => 'name' in c && c.name === 'edit_file'));
  const write = (t1.replies[1]!.content[0] as { input: Record<string, string> }).input;
  write.content = "/** Turns a title into a URL slug. */\nexport function slugify(text) {\n  return text.toLowerCase().words.join('-');\n}\n";
  const critic = entries.find((e) => e.role === 'critic')!;
  const fail = judgedAs(critic, 'Judgment 1 of', {
    evaluations: [
      { criterion: 'c1', met: false, evidence: ['npm test fails'], confidence: 0.9, tasks: ['t2', 't3'] },
      { criterion: 'c2', met: true, evidence: ["README.md:8 `slugify('Hello, World!')`"], confidence: 0.9 },
    ],
    overall_reason: 'The tests fail.',
  });
  const pass = { ...structuredClone(critic), contains: 'Judgment 2 of' };
  model.entries = [...entries.filter((e) => e !== critic), secondTry, fail, pass] as Entry[];
}

/** The demo, with a README task that first leaves out the example and a critic that notices. */
function failThenPass(s: Scenario): void {
  const model = s.model as { entries: Entry[] };
  const entries = model.entries;
  const t3 = entries.find((e) => e.role === 'worker' && e.task === 't3')!;
  const firstTry = structuredClone(t3);
  firstTry.attempt = 1;
  const toolInput = (e: Entry, reply: number) => (e.replies[reply]!.content[0] as { input: Record<string, string> }).input;
  const edit = toolInput(firstTry, 1);
  edit.new_string = '- `capitalize(text)`: upper-cases the first letter.\n- `slugify(text)`: turns a title into a URL slug.';
  const secondTry = structuredClone(t3);
  secondTry.attempt = 2;
  const fix = toolInput(secondTry, 1);
  fix.old_string = '- `slugify(text)`: turns a title into a URL slug.';
  fix.new_string = "- `slugify(text)`: turns a title into a URL slug, e.g. `slugify('Hello, World!')` is `'hello-world'`.";
  const critic = entries.find((e) => e.role === 'critic')!;
  const fail = judgedAs(critic, 'Judgment 1 of', {
    evaluations: [{ criterion: 'c2', met: false, evidence: ['README.md:6 lists `slugify(text)` without an example'], confidence: 0.9, tasks: ['t3'] }],
    overall_reason: 'The README lists slugify but shows no example.',
    suggested_next_action: "Add an example such as slugify('Hello, World!') to the README entry.",
  });
  const pass = judgedAs(critic, 'Judgment 2 of', {
    evaluations: [{ criterion: 'c2', met: true, evidence: ["README.md:8 `slugify('Hello, World!')` is `'hello-world'`"], confidence: 0.95 }],
    overall_reason: 'The README now has the example.',
  });
  model.entries = [...entries.filter((e) => e !== t3 && e !== critic), firstTry, secondTry, fail, pass] as Entry[];
}
