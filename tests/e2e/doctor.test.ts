import { describe, expect, it } from 'vitest';
import { crewComments, expectFaithful, play } from './helpers';

describe('/crew doctor on an issue', () => {
  it("refuses a reader; for a writer, one comment: each problem with its fix, what the job's token cannot see and where to look", async () => {
    const r = await play('doctor');
    expectFaithful(r);
    expect(r.model.requests).toBe(0);
    const [refusal, report, ...more] = crewComments(r);
    expect(more).toEqual([]);
    expect(refusal!.body).toContain('@passerby, crew only takes commands from people with write access');
    // The job's links are to the server it runs on (GITHUB_SERVER_URL): the fake's, here.
    const body = report!.body.replace(/http:\/\/(?:127\.0\.0\.1|github\.localhost):\d+/g, 'https://github.com');
    expect(body).toContain('### crew doctor: acme/widgets');
    expect(body).toContain('**2 things to fix before crew can run here.**');
    expect(body).toContain(
      "- ❌ a ruleset refuses crew's pushes to `crew/<issue>/r<run>/…` (required_signatures); crew's runs will stop with GH013.<br>Fix: https://github.com/acme/widgets/settings/rules: leave `crew/**` out of the ruleset's branches",
    );
    expect(body).toContain('- ❌ this job was given no ANTHROPIC_API_KEY: the agents cannot call the model.<br>Fix: `gh secret set ANTHROPIC_API_KEY`');
    // GITHUB_TOKEN never holds administration: those settings are unknown here, with the page and the local command.
    expect(body).toContain(
      "- ❔ whether GitHub Actions is on: unknown, crew's workflow token cannot read it (GitHub shows it to admins only).<br>Fix: https://github.com/acme/widgets/settings/actions (or run `npx crew doctor` with an admin's token)",
    );
    expect(body).toMatch(/- ✅ \.github\/workflows\/crew\.yml is on main: the (short|full) form, at v1\./);
    expect(body).toContain('- ✅ nothing refuses crew/state, where crew keeps its runs.');
    expect(body).toContain('- ✅ every crew/ branch belongs to an open run.');
    // Read from crew/state, which this repository does not have yet: nothing spent.
    expect(body).toContain(
      "- ✅ the repository's spend: today (UTC): $0.00 in 0 runs (no `budgets.day`); this month (UTC): $0.00 in 0 runs (no `budgets.month`).",
    );
  }, 240_000);
});
