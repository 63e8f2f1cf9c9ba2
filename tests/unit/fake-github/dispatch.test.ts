import { describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../../support/github/fake-github';
import { CREW_WORKFLOW, failure, fakeForTest, octokitFor, recordEvents, repoOf, seedBranch } from './helpers';

const dispatch = (gh: FakeGitHub, token: string, workflow_id: string, inputs: Record<string, unknown> | undefined, ref = 'main') =>
  octokitFor(gh, token).request('POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', {
    ...repoOf(gh),
    workflow_id,
    ref,
    ...(inputs ? { inputs } : {}),
  });

describe('workflow_dispatch', () => {
  it('answers 204 and emits workflow_dispatch with inputs, defaults, ref and workflow', async () => {
    const gh = await fakeForTest();
    const events = recordEvents(gh);
    const r = await dispatch(gh, gh.userToken('acme'), 'crew.yml', { issue: '12', note: 'hello' });
    expect(r.status).toBe(204);
    expect(r.data).toBeFalsy();
    expect(events).toHaveLength(1);
    expect(events[0]!).toMatchObject({
      name: 'workflow_dispatch',
      actor: 'acme',
      payload: {
        inputs: { issue: '12', mode: 'route', note: 'hello' },
        ref: 'refs/heads/main',
        workflow: '.github/workflows/crew.yml',
        repository: { full_name: 'acme/widgets' },
        sender: { login: 'acme' },
      },
    });
    expect(events[0]!.payload).not.toHaveProperty('organization');
  });

  it('emits for a dispatch made with a workflow’s GITHUB_TOKEN, unlike other events', async () => {
    const gh = await fakeForTest();
    const events = recordEvents(gh);
    await dispatch(gh, gh.actionsToken({ actions: 'write' }), 'crew.yml', { issue: 3, mode: 'work' }, 'refs/heads/main');
    expect(events).toHaveLength(1);
    expect(events[0]!.actor).toBe('github-actions[bot]');
    // Inputs arrive as strings, and the ref fully qualified.
    expect(events[0]!.payload).toMatchObject({ inputs: { issue: '3', mode: 'work' }, ref: 'refs/heads/main' });
  });

  it('refuses inputs the workflow does not declare', async () => {
    const gh = await fakeForTest();
    const events = recordEvents(gh);
    const bad = await failure(dispatch(gh, gh.userToken('acme'), 'crew.yml', { issue: '1', nonce: 'x', extra: 'y' }));
    expect(bad.status).toBe(422);
    expect(bad.message).toContain('Unexpected inputs provided: ["nonce","extra"]');
    expect(events).toEqual([]);
  });

  it('refuses a dispatch missing a required input, and a choice outside its options', async () => {
    const gh = await fakeForTest();
    const events = recordEvents(gh);
    const missing = await failure(dispatch(gh, gh.userToken('acme'), 'crew.yml', { mode: 'work' }));
    expect(missing.status).toBe(422);
    expect(missing.message).toContain("Required input 'issue' not provided");
    expect((await failure(dispatch(gh, gh.userToken('acme'), 'crew.yml', undefined))).status).toBe(422);
    const choice = await failure(dispatch(gh, gh.userToken('acme'), 'crew.yml', { issue: '1', mode: 'fly' }));
    expect(choice.status).toBe(422);
    expect(choice.message).toContain("Provided value 'fly' for input 'mode' not in the list of allowed values");
    expect(events).toEqual([]);
  });

  it('refuses a workflow without the workflow_dispatch trigger (422) and an unknown workflow (404)', async () => {
    const gh = await fakeForTest();
    const noTrigger = await failure(dispatch(gh, gh.userToken('acme'), 'ci.yml', {}));
    expect(noTrigger.status).toBe(422);
    expect(noTrigger.message).toContain("Workflow does not have 'workflow_dispatch' trigger");
    expect((await failure(dispatch(gh, gh.userToken('acme'), 'nope.yml', {}))).status).toBe(404);
    const badRef = await failure(dispatch(gh, gh.userToken('acme'), 'crew.yml', { issue: '1' }, 'no-such-branch'));
    expect(badRef.status).toBe(422);
    expect(badRef.message).toContain('No ref found for: no-such-branch');
  });

  it('reads the workflow at the dispatched ref', async () => {
    const gh = await fakeForTest();
    await seedBranch(gh, 'next', {
      '.github/workflows/crew.yml': CREW_WORKFLOW.replace(
        '      note:\n        required: false\n',
        '      note:\n        required: false\n      nonce:\n        required: false\n',
      ),
    });
    const events = recordEvents(gh);
    expect((await failure(dispatch(gh, gh.userToken('acme'), 'crew.yml', { issue: '1', nonce: 'n' }))).status).toBe(422);
    expect((await dispatch(gh, gh.userToken('acme'), 'crew.yml', { issue: '1', nonce: 'n' }, 'next')).status).toBe(204);
    expect(events[0]!.payload).toMatchObject({ ref: 'refs/heads/next', inputs: { issue: '1', nonce: 'n' } });
  });

  it('accepts the short `on: workflow_dispatch` spelling', async () => {
    const gh = await fakeForTest({
      files: { '.github/workflows/plain.yml': 'on: workflow_dispatch\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n' },
    });
    const events = recordEvents(gh);
    expect((await dispatch(gh, gh.userToken('acme'), 'plain.yml', undefined)).status).toBe(204);
    expect(events[0]!.payload).toMatchObject({ inputs: {}, workflow: '.github/workflows/plain.yml' });
    expect((await failure(dispatch(gh, gh.userToken('acme'), 'plain.yml', { any: 'x' }))).status).toBe(422);
  });
});
