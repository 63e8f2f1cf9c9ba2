import { describe, expect, it } from 'vitest';
import { crewComments, expectFaithful, play, shown } from './helpers';

describe('repository budgets on the offline world (#52)', () => {
  it('a second run the same UTC day, past budgets.day, is refused with the spend, the budget and the reset time, and asks the model nothing', async () => {
    let run2: string | undefined;
    const r = await play('repository-budget', {
      hooks: {
        beforeClose: async ({ gh }) => {
          run2 = await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-2/run.json');
        },
      },
    });
    expectFaithful(r);
    // The first run went on to its pull request; the second made no run and no model request (one intake: the first run's).
    expect(r.pulls).toHaveLength(1);
    expect(run2).toBeUndefined();
    expect(r.model.byRole.intake).toBe(1);
    const said = crewComments(r).map((c) => ({ body: shown(c.body), at: c.createdAt }));
    expect(said).toHaveLength(2);
    expect(said[0]!.body).toMatch(/^<!-- crew:plan issue=1 run=1 -->/);
    const refusal = said[1]!;
    const tomorrow = new Date(Date.parse(refusal.at) + 24 * 3600_000).toISOString().slice(0, 10);
    expect(refusal.body).toMatch(
      /^crew did not start this run: a repository budget is spent\. The repository's runs have spent \$\d+\.\d+ today \(UTC\), against `budgets\.day` of \$0\.0[12], and a run here typically costs \$\d+\.\d+ \(the median of recent runs\), so this one would pass it\.\n\n/,
    );
    expect(refusal.body).toContain(`The day's count starts again at ${tomorrow} 00:00 UTC: ask again then, or raise \`budgets.day\``);
  }, 360_000);
});
