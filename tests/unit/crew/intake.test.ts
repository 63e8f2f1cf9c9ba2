import { describe, expect, it } from 'vitest';
import { runIntake } from '../../../src/agents/intake';
import { SubmissionRejected } from '../../../src/agents/submission';
import { droppedCriteria, statedCriteria } from '../../../src/domain/criteria';
import type { Log, Model, ModelRequest } from '../../../src/ports';
import { scriptedSubmissions } from './scripted-model';
import { renderPlanComment } from '../../../src/render/plan-comment';
import { view } from './run-fixtures';
import { GITHUB } from '../../../src/domain/surface';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

const scripted = (inputs: unknown[]) => scriptedSubmissions('submit_intake', inputs);
const text = (req: ModelRequest) => JSON.stringify(req.messages);
const intake = (model: Model, body: string, answers = '') =>
  runIntake({ model, modelId: 'm', system: 'sys', log }, { title: 'Add slugify', body, stated: statedCriteria(body), answers });

describe("intake keeps the issue's own done criteria", () => {
  const doneWhen = 'Add slugify.\n\nDone when:\n- `npm test` passes, with tests for slugify\n- the README documents slugify\n';

  it('"Done when": a dropped criterion is sent back by number; reworded and made a command, it counts', async () => {
    const { model, requests } = scripted([
      { task: 'Add slugify.', criteria: [{ text: 'The test suite passes', kind: 'command', command: 'npm test', restates: 1 }], single_task: false },
      {
        task: 'Add slugify.',
        criteria: [
          { text: 'The test suite passes, including tests for slugify', kind: 'command', command: 'npm test', restates: 1 },
          { text: 'The README documents slugify with an example', kind: 'semantic', restates: 2 },
        ],
        single_task: false,
      },
    ]);
    const out = await intake(model, doneWhen);
    // The criteria are numbered in the prompt, so the model can say which one it restates.
    expect(text(requests[0]!)).toContain('1. `npm test` passes, with tests for slugify\\n2. the README documents slugify');
    expect(text(requests[1]!)).toContain(`the issue's criterion 2 (\\"the README documents slugify\\") is missing; keep it`);
    expect(out.intake.criteria.map((c) => [c.id, c.kind, c.text])).toEqual([
      ['c1', 'command', 'The test suite passes, including tests for slugify'],
      ['c2', 'semantic', 'The README documents slugify with an example'],
    ]);
  });

  it('a checklist: kept word for word, no number needed; a number past the list is refused', async () => {
    const body = 'Tidy up:\n- [ ] remove the unused export\n- [x] `npm run lint` exits 0\n';
    const { model, requests } = scripted([
      {
        task: 'Tidy.',
        criteria: [
          { text: 'remove the unused export', kind: 'semantic' },
          { text: 'lint is clean', kind: 'command', command: 'npm run lint', restates: 3 },
        ],
        single_task: false,
      },
      {
        task: 'Tidy.',
        criteria: [
          { text: 'Remove the unused export.', kind: 'semantic' },
          { text: 'lint is clean', kind: 'command', command: 'npm run lint', restates: 2 },
        ],
        single_task: false,
      },
    ]);
    const out = await intake(model, body);
    expect(text(requests[1]!)).toContain('criteria.1.restates: the issue states 2 criteria, so there is no number 3');
    expect(out.intake.criteria.map((c) => c.text)).toEqual(['Remove the unused export.', 'lint is clean']);
  });

  it('no stated criteria: intake proposes its own, and nothing is demanded of it', async () => {
    const { model, requests } = scripted([
      { task: 'Add slugify.', criteria: [{ text: 'src/slugify.js exports slugify', kind: 'semantic' }], single_task: false },
    ]);
    const out = await intake(model, 'Please add a slugify function.');
    expect(text(requests[0]!)).toContain('The issue states no done criteria; propose checkable ones.');
    expect(requests).toHaveLength(1);
    expect(out.intake.criteria).toEqual([{ id: 'c1', text: 'src/slugify.js exports slugify', kind: 'semantic' }]);
  });

  it('a model that keeps dropping one fails intake with the criterion named', async () => {
    const dropping = { task: 'Add slugify.', criteria: [{ text: 'tests pass', kind: 'command', command: 'npm test', restates: 1 }], single_task: false };
    const { model } = scripted([dropping, dropping, dropping]);
    const err = await intake(model, doneWhen).catch((e) => e);
    expect(err).toBeInstanceOf(SubmissionRejected);
    expect((err as SubmissionRejected).errors).toEqual([
      `criteria: the issue's criterion 2 ("the README documents slugify") is missing; keep it (reworded or as a command if you like) and set restates: 2`,
    ]);
  });

  it('droppedCriteria: case, emphasis and punctuation aside, or by number', () => {
    expect(droppedCriteria(['`npm test` passes', 'the README documents it'], [{ text: 'npm test passes.' }])).toEqual([
      { n: 2, text: 'the README documents it' },
    ]);
    expect(droppedCriteria(['a', 'b'], [{ text: 'x', restates: 2 }, { text: 'A' }])).toEqual([]);
    expect(droppedCriteria([], [{ text: 'x' }])).toEqual([]);
  });
});

describe('vague criteria', () => {
  it('are asked about after an answer too, if the answer left them unmeasurable', async () => {
    const vague = { task: 'Speed up capitalize.', criteria: [{ text: 'capitalize is fast enough', kind: 'semantic', restates: 1 }], single_task: false };
    const { model } = scripted([vague]);
    const out = await intake(model, 'Done when:\n- capitalize is fast enough\n', '## Questions\n1. How fast?\n\n## Answer from @maintainer\nYou decide.\n');
    expect(out.intake.questions).toEqual([expect.stringMatching(/^"capitalize is fast enough" cannot be checked as written/)]);
  });

  it('a command criterion is decided by its exit code, however vague its wording', async () => {
    const { model } = scripted([
      {
        task: 'Speed up capitalize.',
        criteria: [{ text: 'capitalize is fast enough', kind: 'command', command: 'npm run bench', restates: 1 }],
        single_task: false,
      },
    ]);
    const out = await intake(model, 'Done when:\n- capitalize is fast enough\n');
    expect(out.intake.questions).toEqual([]);
  });
});

describe('questions still open after the last round', () => {
  it('the plan comment says the plan went ahead without answers, and lists them', () => {
    const v = view(['pending', 'pending', 'pending']);
    v.plan = { ...v.plan!, openQuestions: ['How fast is fast enough?', 'Which | browsers?'] };
    const body = renderPlanComment(v, { comment: () => 'c', branch: () => 'b', run: 'r', stateFile: () => 's' }, GITHUB);
    expect(body).toContain(
      '> [!WARNING]\n> **Planned without answers.** crew asked as often as it may, and these questions are still open, so the plan rests on assumptions:\n> 1. How fast is fast enough?\n> 2. Which \\| browsers?',
    );
    expect(
      renderPlanComment(view(['pending', 'pending', 'pending']), { comment: () => 'c', branch: () => 'b', run: 'r', stateFile: () => 's' }, GITHUB),
    ).not.toContain('Planned without answers');
  });
});
