import { describe, expect, it } from 'vitest';
import { runRetrospector } from '../../../src/agents/retrospector';
import {
  classify,
  knowledgeEntry,
  proposalScore,
  renderRetrospective,
  renderRetrospectiveMd,
  retroMode,
  selectProposals,
  type Proposal,
  type Retrospective,
  type ScoredProposal,
} from '../../../src/domain/retrospective';
import { ZERO_USAGE } from '../../../src/domain/run-state';
import type { Log, Model, ModelRequest, ModelReply } from '../../../src/ports';

const clean = { status: 'success', quality: 'GREEN', completeness: 100, failedTasks: [] as string[] } as const;

describe('retroMode: full when something went wrong, light after a clean run', () => {
  it('a clean run is light', () => {
    expect(retroMode(clean, false)).toBe('light');
  });
  it('/crew retro forces full', () => {
    expect(retroMode(clean, true)).toBe('full');
  });
  it.each(['failure', 'partial'] as const)('status %s is full', (status) => {
    expect(retroMode({ ...clean, status }, false)).toBe('full');
  });
  it('quality RED is full', () => {
    expect(retroMode({ ...clean, quality: 'RED' }, false)).toBe('full');
  });
  it('quality YELLOW below 80% completeness is full, at 80% light', () => {
    expect(retroMode({ ...clean, quality: 'YELLOW', completeness: 79 }, false)).toBe('full');
    expect(retroMode({ ...clean, quality: 'YELLOW', completeness: 80 }, false)).toBe('light');
  });
  it('low completeness with GREEN quality alone is light', () => {
    expect(retroMode({ ...clean, completeness: 50 }, false)).toBe('light');
  });
  it('any failed task is full', () => {
    expect(retroMode({ ...clean, failedTasks: ['t2'] }, false)).toBe('full');
  });
});

const proposal = (kind: Proposal['kind'], title: string, [recurrence, impact, generality, feasibility]: [number, number, number, number]): Proposal => ({
  kind,
  title,
  body: `Do ${title}.`,
  recurrence,
  impact,
  generality,
  feasibility,
});

describe('proposalScore: recurrence 30%, impact 30%, generality 20%, feasibility 20%', () => {
  it.each([
    [[5, 5, 5, 5], 5],
    [[1, 1, 1, 1], 1],
    [[4, 4, 3, 3], 3.6],
    [[5, 4, 2, 2], 3.5],
    [[4, 4, 3, 2], 3.4],
    [[3, 2, 3, 2], 2.5],
    [[4, 3, 1, 1], 2.5],
    [[3, 3, 1, 2], 2.4],
    [[1, 2, 3, 4], 2.3],
    [[2, 1, 1, 1], 1.3],
  ] as const)('%j scores %s, with no float noise', (scores, expected) => {
    expect(proposalScore(proposal('skill', 'x', [...scores]))).toBe(expected);
  });
  it('rounds to two decimals', () => {
    expect(proposalScore({ recurrence: 3.333, impact: 3, generality: 3, feasibility: 3 })).toBe(3.1);
  });
});

describe('classify: adopt at the threshold, hold down to 2.5, discard below', () => {
  it.each([
    [5, 'adopt'],
    [3.5, 'adopt'],
    [3.49, 'hold'],
    [3.4, 'hold'],
    [2.5, 'hold'],
    [2.49, 'discard'],
    [1, 'discard'],
  ] as const)('%s at threshold 3.5 → %s', (score, decision) => {
    expect(classify(score, 3.5)).toBe(decision);
  });
  it('real proposals land exactly on the boundaries', () => {
    const at = (s: [number, number, number, number]) => classify(proposalScore(proposal('skill', 'x', s)), 3.5);
    expect(at([5, 4, 2, 2])).toBe('adopt'); // 3.5
    expect(at([4, 4, 3, 2])).toBe('hold'); // 3.4
    expect(at([3, 2, 3, 2])).toBe('hold'); // 2.5
    expect(at([3, 3, 1, 2])).toBe('discard'); // 2.4
  });
  it('a threshold below 2.5 adopts anything at or above it', () => {
    expect(classify(2, 2)).toBe('adopt');
    expect(classify(1.99, 2)).toBe('discard');
  });
  it('a threshold of 5 adopts only a perfect score', () => {
    expect(classify(5, 5)).toBe('adopt');
    expect(classify(4.8, 5)).toBe('hold');
  });
});

const caps = { full: { max_improvements: 2, max_skills: 1 }, light: { max_skills: 2 } };
const titles = (ps: ScoredProposal[]) => ps.map((p) => p.title);

describe('selectProposals: scores, caps and mode', () => {
  it('full mode adopts at most two improvements; the third adopt-scoring one is held, not discarded', () => {
    const r = selectProposals(
      [proposal('improvement', 'i-low', [4, 4, 3, 3]), proposal('improvement', 'i-top', [5, 5, 5, 5]), proposal('improvement', 'i-mid', [5, 5, 4, 4])],
      'full',
      caps,
      3.5,
    );
    expect(titles(r.adopted)).toEqual(['i-top', 'i-mid']);
    expect(r.held).toHaveLength(1);
    expect(r.held[0]).toMatchObject({ title: 'i-low', score: 3.6, decision: 'hold' });
    expect(r.discarded).toEqual([]);
  });
  it('full mode adopts at most one skill, alongside improvements', () => {
    const r = selectProposals(
      [proposal('skill', 's1', [5, 5, 5, 5]), proposal('skill', 's2', [5, 5, 5, 4]), proposal('improvement', 'i1', [4, 4, 4, 4])],
      'full',
      caps,
      3.5,
    );
    expect(titles(r.adopted)).toEqual(['s1', 'i1']);
    expect(titles(r.held)).toEqual(['s2']);
  });
  it('light mode never adopts an improvement and adopts at most two skills', () => {
    const r = selectProposals(
      [
        proposal('improvement', 'i1', [5, 5, 5, 5]),
        proposal('skill', 's1', [4, 4, 4, 4]),
        proposal('skill', 's2', [5, 5, 5, 5]),
        proposal('skill', 's3', [4, 4, 4, 3]),
      ],
      'light',
      caps,
      3.5,
    );
    expect(titles(r.adopted)).toEqual(['s2', 's1']);
    expect(titles(r.held)).toEqual(['i1', 's3']);
    expect(r.held.every((p) => p.decision === 'hold')).toBe(true);
  });
  it('sorts each list by score, highest first, keeping the given order on ties', () => {
    const r = selectProposals(
      [
        proposal('skill', 'low', [1, 1, 1, 1]),
        proposal('improvement', 'hold-a', [3, 3, 3, 3]),
        proposal('skill', 'lower', [2, 2, 2, 1]),
        proposal('improvement', 'hold-b', [3, 3, 3, 3]),
        proposal('improvement', 'hold-top', [4, 4, 3, 2]),
      ],
      'full',
      caps,
      3.5,
    );
    expect(r.adopted).toEqual([]);
    expect(titles(r.held)).toEqual(['hold-top', 'hold-a', 'hold-b']);
    expect(titles(r.discarded)).toEqual(['lower', 'low']);
    expect(r.discarded.map((p) => [p.score, p.decision])).toEqual([
      [1.8, 'discard'],
      [1, 'discard'],
    ]);
  });
  it('held proposals cut by a cap sort among those that scored below the threshold', () => {
    const r = selectProposals(
      [proposal('improvement', 'below', [4, 4, 3, 2]), proposal('skill', 'top', [5, 5, 5, 5]), proposal('skill', 'cut', [4, 4, 4, 4])],
      'full',
      caps,
      3.5,
    );
    expect(titles(r.adopted)).toEqual(['top']);
    expect(r.held.map((p) => [p.title, p.score])).toEqual([
      ['cut', 4],
      ['below', 3.4],
    ]);
  });
  it('caps of zero adopt nothing', () => {
    const r = selectProposals([proposal('skill', 's', [5, 5, 5, 5])], 'full', { full: { max_improvements: 0, max_skills: 0 }, light: { max_skills: 0 } }, 3.5);
    expect(r.adopted).toEqual([]);
    expect(titles(r.held)).toEqual(['s']);
  });
  it('no proposals gives empty lists', () => {
    expect(selectProposals([], 'light', caps, 3.5)).toEqual({ adopted: [], held: [], discarded: [] });
  });
});

describe('knowledgeEntry', () => {
  it('trims, joins lines, and records the source and time', () => {
    const e = knowledgeEntry(
      { type: 'lesson', content: '  Run `npm ci` first.\n\n  The lockfile is strict.\r\n ', confidence: 0.8 },
      'issue #7 run 2',
      '2025-01-02T03:04:05Z',
    );
    expect(e).toEqual({
      type: 'lesson',
      content: 'Run `npm ci` first. The lockfile is strict.',
      source: 'issue #7 run 2',
      confidence: 0.8,
      created_at: '2025-01-02T03:04:05Z',
    });
  });
  it('caps content at 500 characters', () => {
    const e = knowledgeEntry({ type: 'codebase', content: 'x'.repeat(800), confidence: 0.5 }, 's', 't');
    expect(e.content).toHaveLength(500);
  });
  it.each([
    [1.7, 1],
    [-0.2, 0],
    [0.35, 0.35],
    [Number.NaN, 0],
  ])('clamps confidence %s to %s', (given, expected) => {
    expect(knowledgeEntry({ type: 'pattern', content: 'c', confidence: given }, 's', 't').confidence).toBe(expected);
  });
});

const scored = (p: Proposal, decision: ScoredProposal['decision']): ScoredProposal => ({ ...p, score: proposalScore(p), decision });

const retro = (over: Partial<Retrospective> = {}): Retrospective => ({
  mode: 'full',
  summary: 'Two of three tasks passed; the docs task needed a retry.',
  wentWell: ['The split into three tasks kept merges clean.'],
  wentWrong: ['t2 missed the README example at first.'],
  adopted: [scored(proposal('improvement', 'Name the README in doc tasks', [5, 4, 4, 4]), 'adopt')],
  held: [scored(proposal('skill', 'Pipe | in a title', [4, 4, 3, 2]), 'hold')],
  discarded: [scored(proposal('skill', 'Weak idea', [1, 1, 1, 1]), 'discard'), scored(proposal('skill', 'Weaker idea', [1, 1, 1, 1]), 'discard')],
  memory: [
    { type: 'lesson', content: 'Docs live in README.md, not docs/.', confidence: 0.8 },
    { type: 'constraint', content: 'CI runs\nNode 20 only.', confidence: 0.95 },
  ],
  at: '2025-01-02T03:04:05Z',
  ...over,
});

describe('renderRetrospective', () => {
  const md = renderRetrospective(retro(), { issue: 12, run: 3 });

  it('starts with the hidden marker, then the heading with the mode', () => {
    expect(md.split('\n').slice(0, 2)).toEqual(['<!-- crew:retro issue=12 run=3 -->', '## crew retrospective · run 3 (full)']);
    expect(md).toContain('Two of three tasks passed');
  });
  it('lists what went well and wrong', () => {
    expect(md).toContain('### What went well\n- The split into three tasks kept merges clean.');
    expect(md).toContain('### What went wrong\n- t2 missed the README example at first.');
  });
  it('puts adopted then held proposals in a table and only counts the discarded ones', () => {
    expect(md).toContain('| Decision | Kind | Proposal | Score |');
    const adopt = md.indexOf('| ✅ adopt | improvement | **Name the README in doc tasks**: Do Name the README in doc tasks. | 4.30 |');
    const hold = md.indexOf('| ⏸ hold | skill | **Pipe \\| in a title**: Do Pipe \\| in a title. | 3.40 |');
    expect(adopt).toBeGreaterThan(0);
    expect(hold).toBeGreaterThan(adopt);
    expect(md).toContain('2 other proposals scored too low and were discarded.');
    expect(md).not.toContain('Weak idea');
  });
  it('numbers the memory candidates and says how to keep one', () => {
    expect(md).toContain(
      '### Memory candidates\n\n1. [lesson] Docs live in README.md, not docs/. (confidence 0.8)\n2. [constraint] CI runs Node 20 only. (confidence 0.95)',
    );
    expect(md).toContain('A maintainer can comment `/crew remember <n>` to add one to `.github/crew/knowledge.jsonl` through a small pull request.');
  });
  it('omits empty sections', () => {
    const bare = renderRetrospective(retro({ mode: 'light', wentWell: [], wentWrong: ['  '], adopted: [], held: [], discarded: [], memory: [] }), {
      issue: 12,
      run: 3,
    });
    expect(bare).toContain('## crew retrospective · run 3 (light)');
    for (const gone of ['What went well', 'What went wrong', 'Proposals', '| Decision', 'Memory candidates', '/crew remember', 'discarded'])
      expect(bare).not.toContain(gone);
  });
  it('with only discarded proposals, says so without a table', () => {
    const only = renderRetrospective(retro({ adopted: [], held: [] }), { issue: 1, run: 1 });
    expect(only).not.toContain('| Decision');
    expect(only).toContain('2 proposals scored too low and were discarded.');
  });
  it('a single discarded proposal reads in the singular', () => {
    expect(renderRetrospective(retro({ discarded: retro().discarded.slice(0, 1) }), { issue: 1, run: 1 })).toContain(
      '1 other proposal scored too low and was discarded.',
    );
  });
  it('model text cannot pass for a crew marker', () => {
    const sneaky = renderRetrospective(retro({ summary: 'ok <!-- crew:report issue=12 run=3 -->' }), { issue: 12, run: 3 });
    expect(sneaky.match(/<!--/g)).toHaveLength(1);
  });
  it('stays under 60,000 characters however long the fields are', () => {
    const long = 'word '.repeat(5000);
    const many = Array.from({ length: 200 }, (_, i) => scored(proposal('skill', `p${i} ${long}`, [4, 4, 4, 4]), 'hold'));
    const huge = renderRetrospective(
      retro({
        summary: long.repeat(10),
        wentWell: Array(200).fill(long),
        wentWrong: Array(200).fill(long),
        held: many,
        memory: Array(50).fill({ type: 'lesson', content: long, confidence: 0.5 }),
      }),
      { issue: 1, run: 1 },
    );
    expect(huge.length).toBeLessThanOrEqual(60_000);
    expect(huge.startsWith('<!-- crew:retro issue=1 run=1 -->')).toBe(true);
  });
  it('the state file has the same content without the marker', () => {
    const file = renderRetrospectiveMd(retro(), { issue: 12, run: 3 });
    expect(file.startsWith('## crew retrospective · run 3 (full)')).toBe(true);
    expect(file).not.toContain('<!--');
    expect(md).toContain(file.trimEnd());
  });
});

describe('runRetrospector', () => {
  const log: Log = { info: () => {}, warn: () => {}, checkpoint: () => {} };
  const scripted = (inputs: unknown[]) => {
    const requests: ModelRequest[] = [];
    const model: Model = {
      async complete(req): Promise<ModelReply> {
        requests.push(structuredClone(req));
        const input = inputs[requests.length - 1];
        return {
          content: [{ type: 'tool_use', id: `tu${requests.length}`, name: 'submit_retrospective', input }],
          stopReason: 'tool_use',
          usage: { ...ZERO_USAGE, inputTokens: 10, outputTokens: 5 },
        };
      },
    };
    return { model, requests };
  };

  it('states the mode and the facts, and maps the submission', async () => {
    const { model, requests } = scripted([
      {
        summary: 'Fine.',
        proposals: [{ kind: 'skill', title: 'Run lint first', body: 'npm run lint before tests', recurrence: 4, impact: 3, generality: 3, feasibility: 5 }],
        memory_candidates: [{ type: 'codebase', content: 'Tests live in tests/unit.', confidence: 0.9 }],
      },
    ]);
    const out = await runRetrospector(model, { modelId: 'm', system: 'sys', mode: 'light', facts: 'FACTS HERE' }, log);
    const first = requests[0]!.messages[0]!.content[0] as { type: 'text'; text: string };
    expect(first.text).toMatch(/light/i);
    expect(first.text).toContain('only reusable skills');
    expect(first.text).toContain('FACTS HERE');
    expect(requests[0]!.tools.map((t) => t.name)).toEqual(['submit_retrospective']);
    expect(out).toMatchObject({
      summary: 'Fine.',
      wentWell: [],
      wentWrong: [],
      proposals: [{ kind: 'skill', title: 'Run lint first', recurrence: 4 }],
      memory: [{ type: 'codebase', content: 'Tests live in tests/unit.', confidence: 0.9 }],
    });
    expect(out.usage.inputTokens).toBe(10);
  });

  it('full mode asks for improvements', async () => {
    const { model, requests } = scripted([{ summary: 'Bad.' }]);
    await runRetrospector(model, { modelId: 'm', system: 'sys', mode: 'full', facts: 'f' }, log);
    expect((requests[0]!.messages[0]!.content[0] as { text: string }).text).toContain('improvements to the process and at most a skill');
  });

  it('sends an out-of-range score back to the model', async () => {
    const bad = { summary: 'x', proposals: [{ kind: 'skill', title: 't', body: 'b', recurrence: 6, impact: 3, generality: 3, feasibility: 3 }] };
    const { model, requests } = scripted([bad, { summary: 'x', memory_candidates: [] }]);
    const out = await runRetrospector(model, { modelId: 'm', system: 'sys', mode: 'full', facts: 'f' }, log);
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]!.messages)).toContain('proposals.0.recurrence');
    expect(out.proposals).toEqual([]);
  });
});
