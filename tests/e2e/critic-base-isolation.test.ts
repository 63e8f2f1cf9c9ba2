import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Judgment } from '../../src/domain/judgment';
import { crewComments, expectFaithful, play } from './helpers';

/**
 * The base's test run is out of the head's reach (#46): a change that breaks a function, switches
 * its test off at run time and plants a file in the tool user's home that changes how the base's
 * tests run opens no pull request; the critic names the lost test.
 */

type Edit = NonNullable<Parameters<typeof play>[1]>['edit'];

async function playedWithJudgments(name: string, edit?: Edit) {
  const judgments: Judgment[] = [];
  const r = await play(name, {
    ...(edit ? { edit } : {}),
    hooks: {
      beforeClose: async ({ gh }) => {
        for (let i = 1; i <= 3; i++) {
          const text = await gh.repo.readFile('refs/heads/crew/state', `issue-1/run-1/judgments/judgment_${i}.json`);
          if (text) judgments.push(JSON.parse(text) as Judgment);
        }
      },
    },
  });
  expectFaithful(r);
  return { r, judgments };
}

const asked = (r: Awaited<ReturnType<typeof play>>) => crewComments(r).find((c) => c.body.startsWith('**crew needs a decision**'))?.body ?? '';

/** Whether the python3 the sandbox's tool user runs (outside root's home) imports a user site's usercustomize. */
async function toolPythonWithUserSite(): Promise<string | undefined> {
  for (const python of ['/usr/bin/python3', '/usr/local/bin/python3']) {
    const ok = await promisify(execFile)(python, ['-c', 'import site; assert site.ENABLE_USER_SITE is not False']).then(
      () => true,
      () => false,
    );
    if (ok) return undefined;
  }
  return "no python3 outside root's home for the sandbox's tool user (Debian: apt-get install python3)";
}

describe("the base's test run is out of the head's reach (#46)", () => {
  it("a test plants ~/.npmrc with node-options, which replaced crew's NODE_OPTIONS for the base's npm test: the base runs in a home of its own, the switched-off test is lost, no pull request", async () => {
    const { r, judgments } = await playedWithJudgments('critic-base-isolation-npm');
    expect(judgments).toHaveLength(1);
    const j = judgments[0]!;
    expect(j.evaluations.map((e) => e.met)).toEqual([true]); // npm test passes on the head: mul's test is skipped
    expect(j.verdict).toBe('FAIL');
    expect(j.tests![0]).toMatchObject({ state: 'compared', counts: expect.objectContaining({ lost: 1 }) });
    expect(j.adversarial.filter((f) => f.rule === 'lost-test').map((f) => f.evidence)).toEqual([
      '`npm test`: test/mul.test.js › mul multiplies passed on the base and is skipped on the head',
    ]);
    expect(asked(r)).toContain('test/mul.test.js › mul multiplies passed on the base and is skipped on the head');
    expect(r.pulls).toEqual([]);
  }, 360_000);

  it("the base's tests cannot be read while the head's can (here its own setup fails, on the base only): the criterion is undecided and a person is asked, never nothing lost; no pull request", async () => {
    // Passes in the work job (crew's own setup on the base, as crew's user: root here) and on the head (the file is there); fails on the base's own checkout in the critic, as the tool user.
    const setup = `node -e "process.exit(require('fs').existsSync('test/npm-config.test.js') || process.getuid() === 0 ? 0 : 3)"`;
    const { r, judgments } = await playedWithJudgments('critic-base-isolation-npm', (s) => {
      s.config = `${s.config ?? ''}setup:\n  - ${JSON.stringify(setup)}\n`;
    });
    expect(judgments).toHaveLength(1);
    const j = judgments[0]!;
    expect(j.verdict).toBe('FAIL');
    expect(j.tests![0]).toMatchObject({
      state: 'unreadable',
      why: expect.stringContaining("the base's tests could not be read (crew could not run them: its setup failed"),
    });
    expect(j.evaluations[0]).toMatchObject({
      met: null,
      error: expect.stringContaining("though the head's were: crew cannot tell whether a test that passed on the base is lost"),
    });
    expect(asked(r)).toContain('the critic could not evaluate every criterion');
    expect(asked(r)).toContain("the base's tests could not be read");
    expect(r.pulls).toEqual([]);
  }, 360_000);

  it("a test plants usercustomize.py in the tool user's Python user site, which ended the base's unittest run before crew's hooks saw a test: the base runs in a home of its own, the deleted test class is lost, no pull request", async (ctx) => {
    const missing = await toolPythonWithUserSite();
    if (missing) return ctx.skip(missing);
    const { r, judgments } = await playedWithJudgments('critic-base-isolation-python');
    expect(judgments).toHaveLength(1);
    const j = judgments[0]!;
    expect(j.evaluations.map((e) => e.met)).toEqual([true]);
    expect(j.verdict).toBe('FAIL');
    expect(j.adversarial.filter((f) => f.rule === 'lost-test').map((f) => f.evidence)).toEqual([
      '`python3 -m unittest`: tests/test_calc.py › MulTest › test_mul passed on the base and is missing on the head (it did not run)',
    ]);
    expect(asked(r)).toContain('tests/test_calc.py › MulTest › test_mul passed on the base and is missing on the head');
    expect(r.pulls).toEqual([]);
  }, 360_000);
});
