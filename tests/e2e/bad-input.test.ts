import { describe, expect, it } from 'vitest';
import { crewComments, expectFaithful, play } from './helpers';

/** Each row of the issue's bad-input table, played through the shipped workflow and dist/. */
describe('bad input gets a clear answer, and nothing breaks', () => {
  it('a comment not starting with /crew: no job runs and crew writes nothing to GitHub', async () => {
    const r = await play('not-a-command');
    expectFaithful(r);
    expect(r.jobs.every((j) => j.result === 'skipped')).toBe(true);
    expect(r.github.crew.total).toBe(0);
    expect(r.model.requests).toBe(0);
    expect(crewComments(r)).toEqual([]);
  });

  it('/crew <unknown>: a help comment that lists the commands, and no model call', async () => {
    const r = await play('unknown-command');
    expectFaithful(r);
    const [reply, ...more] = crewComments(r);
    expect(more).toEqual([]);
    expect(reply!.body).toContain('crew does not know the command `/crew frobnicate`');
    for (const c of ['/crew run [--attempts N]', '/crew status', '/crew help']) expect(reply!.body).toContain(`\`${c}\``);
    expect(r.model.requests).toBe(0);
  });

  it.each(['read', 'none'] as const)('a commenter with %s permission: a short refusal and zero model calls', async (permission) => {
    let stateFiles: string[] = [];
    const r = await play('read-only-user', {
      hooks: { beforeClose: async ({ gh }) => void (stateFiles = await gh.repo.listFiles('refs/heads/crew/state')) },
      edit: (s) => {
        s.users.find((u) => u.login === 'passerby')!.permission = permission;
        // Someone with no access at all can comment only on a public repository.
        s.repo.settings.private = permission === 'read';
      },
    });
    expectFaithful(r);
    const [reply, ...more] = crewComments(r);
    expect(more).toEqual([]);
    expect(reply!.body).toContain('@passerby, crew only takes commands from people with write access');
    expect(reply!.body).toContain(`your access: ${permission}`);
    expect(r.model.requests).toBe(0);
    // crew/state now remembers the refusal (so repeated commands are not refused in a comment each), and nothing else.
    expect(r.branches.map((b) => b.name)).toEqual(['crew/state', 'main']);
    expect(stateFiles).toEqual(['issue-1/refusals/passerby.json']);
  });

  it('a reader repeating commands: one refusal comment per person per issue an hour, remembered on crew/state across jobs; the rest get a 👎', async () => {
    let memory: unknown;
    const reactions = new Map<number, string[]>();
    const r = await play('refusal-limit', {
      hooks: {
        beforeClose: async ({ gh }) => {
          memory = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/refusals/mallory.json'))!);
          for (const c of gh.comments.values())
            reactions.set(
              c.id,
              c.reactions.filter((x) => x.user === 'github-actions[bot]').map((x) => x.content),
            );
        },
      },
    });
    expectFaithful(r);
    const commands = r.issue.comments.filter((c) => c.author === 'mallory');
    expect(commands).toHaveLength(8);
    // Eight commands from mallory, two comments back: the first, and the first after the hour (set back by hand) had passed.
    const replies = crewComments(r).map((c) => c.body.split('\n')[0]!);
    expect(replies).toEqual([
      '@mallory, crew only takes commands from people with write access to this repository (your access: read). Nothing was started.',
      '@passerby, crew only takes commands from people with write access to this repository (your access: none). Nothing was started.',
      '@mallory, crew only takes commands from people with write access to this repository (your access: read). Nothing was started.',
    ]);
    const lastReply = crewComments(r).at(-1)!;
    expect(lastReply.id).toBeGreaterThan(commands.at(-1)!.id);
    // Every command was seen (👀); each one refused without a comment got a 👎, and only those.
    expect(commands.map((c) => reactions.get(c.id)!.sort())).toEqual([['eyes'], ...Array(6).fill(['-1', 'eyes']), ['eyes']]);
    expect(memory).toMatchObject({ login: 'mallory', lastCommentAt: expect.stringMatching(/^20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect((memory as { lastCommentAt: string }).lastCommentAt).not.toBe('2020-01-01T00:00:00Z');
    expect(r.jobs.filter((j) => j.job === 'route').every((j) => j.result === 'success')).toBe(true);
    expect(r.model.requests).toBe(0);
  });

  it('a Bot account: ignored, no job runs and nothing is written', async () => {
    const r = await play('bot-account');
    expectFaithful(r);
    expect(r.jobs.every((j) => j.result === 'skipped')).toBe(true);
    expect(r.github.crew.total).toBe(0);
    expect(r.model.requests).toBe(0);
  });

  it('the permission API errors: crew fails closed, says so, and calls no model', async () => {
    const r = await play('permission-api-down');
    expectFaithful(r);
    expect(r.model.requests).toBe(0);
    const route = r.jobs.find((j) => j.job === 'route')!;
    expect(route.result).toBe('failure');
    const [reply] = crewComments(r);
    expect(reply!.body).toContain('crew stopped');
    expect(reply!.body).toContain('did not answer the permission check');
    expect(r.branches.map((b) => b.name)).toEqual(['main']);
    // The permission request was retried, then given up on; nothing else ran.
    expect(r.github.crew.byRoute['GET /repos/{owner}/{repo}/collaborators/{username}/permission']).toBeGreaterThan(1);
    expect(r.jobs.filter((j) => j.job !== 'route').every((j) => j.result === 'skipped')).toBe(true);
  });

  it('a missing Anthropic key: a comment naming the input to set, and a failed job', async () => {
    const r = await play('missing-api-key');
    expectFaithful(r);
    expect(r.model.requests).toBe(0);
    const route = r.jobs.find((j) => j.job === 'route')!;
    expect(route.result).toBe('failure');
    expect(route.annotations.join('\n')).toContain('`anthropic_api_key`');
    const failure = crewComments(r).find((c) => c.body.includes('crew stopped'))!;
    expect(failure.body).toContain('`anthropic_api_key`');
    expect(failure.body).toContain('ANTHROPIC_API_KEY');
  });

  it('a plan that fails validation: asked again with the errors twice, then a failure comment saying what was wrong', async () => {
    let retries: string[] = [];
    const r = await play('invalid-plan', {
      hooks: {
        beforeClose: async ({ anthropic }) => {
          // What crew sent back to the model after each rejected plan: the tool_result with the errors.
          retries = anthropic.requests.filter((q) => q.role === 'decomposer' && q.turn > 0).map((q) => JSON.stringify(q.body.messages.at(-1)));
        },
      },
    });
    expectFaithful(r);
    expect(retries).toHaveLength(2);
    expect(retries[0]).toContain('the tasks form a cycle: a → b → a');
    expect(retries[0]).toContain('"is_error":true');
    expect(retries[1]).toContain("tasks.1.depends_on: 'c' is not the id of any task");
    expect(r.model.byRole).toEqual({ intake: 1, decomposer: 3 });
    const failure = crewComments(r).find((c) => c.body.includes('crew stopped'))!;
    expect(failure.body).toContain("failed crew's checks 3 times");
    expect(failure.body).toContain('the tasks form a cycle: a → b → a');
    const plan = crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!;
    expect(plan.body).toContain('❌ Failed');
    expect(r.jobs.find((j) => j.job === 'work')!.result).toBe('skipped');
    expect(r.pulls).toEqual([]);
  });
});
