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

describe('/crew doctor and the toolchain versions the repository declares (#51)', () => {
  it("compares them with the route job's runner, which is the work jobs': a problem for node, none for go that the setup steps set up", async () => {
    const r = await play('doctor', {
      edit: (s) => {
        // Node 16 is older than any node this runner (the machine's) has.
        s.repo.files['.nvmrc'] = '16\n';
        s.repo.files['package.json'] = '{"name":"widgets"}\n';
        s.repo.files['go.mod'] = 'module example.com/widgets\n\ngo 1.22\n';
        s.repo.files['.github/actions/crew-setup/action.yml'] =
          'name: crew setup\nruns:\n  using: composite\n  steps:\n    - uses: actions/setup-go@v5\n      with: { go-version-file: go.mod }\n';
      },
    });
    expectFaithful(r);
    const report = crewComments(r).at(-1)!.body;
    expect(report).toContain('**3 things to fix before crew can run here.**');
    expect(report).toMatch(
      /- ❌ `\.nvmrc` asks for Node 16, but the runner's node is (\d+)\.\d+\.\d+, and \.github\/actions\/crew-setup\/action\.yml does not set node up: crew's jobs would build and test with the wrong version\.<br>Fix: `npx crew init` writes \.github\/actions\/crew-setup\/action\.yml with actions\/setup-node with node-version-file/,
    );
    expect(report).toContain('- ✅ `go.mod (go line)` asks for Go 1.22; the setup steps (.github/actions/crew-setup/action.yml) set go up.');
  }, 240_000);
});
