import { describe, expect, it } from 'vitest';
import { git } from '../support/git-cli';
import { expectFaithful, play, shown } from './helpers';

/** Runner jobs the scenario's review traffic started, by event, with each job's result. */
const reviewJobs = (r: Awaited<ReturnType<typeof play>>) => r.jobs.filter((j) => j.event.startsWith('pull_request_review'));
const crewSaid = (r: Awaited<ReturnType<typeof play>>, pr: number) =>
  r.pulls
    .find((p) => p.number === pr)!
    .comments.filter((c) => c.author === r.crewLogin)
    .map((c) => shown(c.body));

describe('/crew on a pull request a person opened (#19 §3, §6)', () => {
  it('a /crew run review on a same-repository pull request ends in crew’s pull request into that branch; the branch is untouched', async () => {
    let personBranchLog = '';
    let request: { title: string; body: string } | undefined;
    let base: unknown;
    const r = await play('pr-stacked', {
      hooks: {
        beforeClose: async ({ gh }) => {
          personBranchLog = await git(['log', '--format=%s', 'refs/heads/feature/shout'], { cwd: gh.repoDir });
          request = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-2/run-1/request.json'))!) as typeof request;
          base = (JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-2/run-1/run.json'))!) as { base: unknown }).base;
        },
      },
    });
    expectFaithful(r);
    const [person, stacked, ...others] = [...r.pulls].sort((a, b) => a.number - b.number);
    expect(others).toEqual([]);
    expect(person!.head).toBe('feature/shout');
    // crew's pull request goes into the person's branch, from a crew/ branch, with the usual report.
    expect(stacked!.base).toBe('feature/shout');
    expect(stacked!.head).toBe('crew/2/r1/integration');
    expect(stacked!.files).toEqual(['src/shout.js']);
    expect(stacked!.body).toContain('Stacked on #2: this pull request goes into its branch `feature/shout`');
    expect(stacked!.body).not.toMatch(/Closes #/);
    expect(crewSaid(r, stacked!.number).some((b) => /^<!-- crew:report issue=2 run=1 -->/.test(b))).toBe(true);
    // The person's branch has only its own commit: crew pushed nothing to it.
    expect(person!.headSha).toBe(r.branches.find((b) => b.name === 'feature/shout')!.sha);
    expect(personBranchLog.split('\n')[0]).toBe('Work on feature/shout');
    // The run lives under the pull request's number, starts from its head, and asked for what the PR and the review said.
    expect(base).toEqual({ branch: 'feature/shout', sha: person!.headSha, pull: 2 });
    expect(request?.title).toBe('Add shout()');
    expect(request?.body).toContain('Adds `shout(text)`');
    expect(request?.body).toContain('Also trim the text before shouting');
    expect(request?.body).not.toMatch(/^\/crew/m);
    // The plan comment is on the pull request's conversation, not on the unrelated issue.
    const onPerson = crewSaid(r, 2);
    expect(onPerson[0]).toMatch(/^<!-- crew:plan issue=2 run=1 -->/);
    expect(onPerson[0]).toContain('✅ Done');
    expect(r.issue.comments.filter((c) => c.author === r.crewLogin)).toEqual([]);
    // The review started route (and the run).
    expect(
      reviewJobs(r)
        .filter((j) => j.result !== 'skipped')
        .map((j) => `${j.job}:${j.result}`),
    ).toEqual(['route:success', 'work:success']);
    // A bare `/crew run` on crew's own pull request, with no words and no review thread, is a follow-up with nothing to do: crew says so.
    expect(crewSaid(r, stacked!.number).at(-1)).toBe(
      'crew found nothing to follow up on: no words after the command and no unresolved review comment by someone with write access. Say what to change, for example `/crew fix rename the option to --dry-run`, or leave review comments first.',
    );
  }, 360_000);

  it('a fork’s pull request is refused with a comment that says why; twenty ordinary review comments start no job', async () => {
    const r = await play('pr-fork');
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    const fork = r.pulls[0]!;
    expect(fork.head).toBe('patch-1');
    // 20 line comments: 20 pull_request_review_comment events and the 20 reviews GitHub makes of them.
    const runs = new Set(reviewJobs(r).map((j) => j.run));
    expect(
      reviewJobs(r)
        .filter((j) => j.event === 'pull_request_review_comment')
        .map((j) => j.run)
        .filter((v, i, a) => a.indexOf(v) === i),
    ).toHaveLength(20);
    expect(runs.size).toBe(40);
    expect(reviewJobs(r).filter((j) => j.result !== 'skipped')).toEqual([]);
    expect(reviewJobs(r).filter((j) => j.exitCodes.length > 0)).toEqual([]);
    // The /crew run: route only, which refused.
    expect(r.jobs.filter((j) => j.event === 'issue_comment' && j.result !== 'skipped').map((j) => `${j.job}:${j.result}`)).toEqual(['route:success']);
    expect(crewSaid(r, fork.number)).toEqual([
      [
        "crew does not work on pull requests from forks, and this one's branch is in `contributor/widgets`.",
        '',
        '- crew cannot push there: it pushes only to `crew/` branches of this repository.',
        "- It does not run a fork's code in jobs that hold this repository's write token and secrets.",
        '',
        'Instead, open an issue that describes the change and comment `/crew run` on it; or, if you have write access, push the branch to this repository, open a pull request from it and comment `/crew run` there.',
      ].join('\n'),
    ]);
    expect(r.model.requests).toBe(0);
    expect(r.branches.map((b) => b.name).filter((n) => n.startsWith('crew/') && n !== 'crew/state')).toEqual([]);
  }, 360_000);
});
