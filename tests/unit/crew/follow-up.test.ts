import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/domain/commands';
import { followUpCriteria, followUpItems, followUpSection, handPushed, type FollowUpMaterial } from '../../../src/domain/follow-up';
import { reviewedSha, RunRecordSchema } from '../../../src/domain/run-state';
import { view } from './run-fixtures';

const material: FollowUpMaterial = {
  feedback: 'Please address\nmy comments.',
  criteria: ['The `test` check passes'],
  threads: [
    {
      rootId: 7,
      path: 'src/a.js',
      line: 3,
      diffHunk: '@@ -3,1 +3,1 @@\n+x',
      comments: [
        { author: 'rev', body: 'Trim it.' },
        { author: 'rev', body: 'Also here.' },
      ],
    },
    { rootId: 9, path: 'src/b.js', line: null, diffHunk: '', comments: [{ author: 'rev', body: 'Outdated note.' }] },
  ],
  kept: [{ id: 'c1', text: 'The tests pass', kind: 'command', command: 'npm test' }],
  leftOut: 1,
  source: 'review',
  images: [],
};

describe('follow-up runs (domain)', () => {
  it('/crew fix takes the rest of the comment as its feedback; a quoted command is not one', () => {
    expect(parseCommand('/crew fix rename it\nand test it')).toEqual({ kind: 'fix', feedback: 'rename it\nand test it' });
    expect(parseCommand('> /crew fix old\n/crew fix new')).toBeUndefined();
    expect(parseCommand('/crew fix')).toEqual({ kind: 'fix', feedback: '' });
  });

  it('every piece of feedback becomes one item intake must keep: the words, each thread, each stated criterion', () => {
    expect(followUpItems(material)).toEqual([
      'Do what the reviewer asked: Please address my comments.',
      'Address the review comment on `src/a.js` line 3: Trim it. / Also here.',
      'Address the review comment on `src/b.js` (outdated): Outdated note.',
      'The `test` check passes',
    ]);
    expect(followUpItems({ ...material, feedback: ' ', threads: [], criteria: [] })).toEqual([]);
    // A failed CI run's log tail is what failed, not a reviewer's words.
    const ci = { ...material, source: 'ci' as const, feedback: 'FAIL adds\nexpected 4 to be 3', threads: [] };
    expect(followUpItems(ci)).toEqual(['Make the failed check pass; what it printed: FAIL adds expected 4 to be 3', 'The `test` check passes']);
    expect(followUpSection(ci, 1, 14)).toContain("### What failed (the end of the failed CI job's log)\n\nFAIL adds\nexpected 4 to be 3");
  });

  it('the request section shows each thread with its hunk and says how many were left for later', () => {
    const text = followUpSection(material, 2, 14);
    expect(text).toMatch(/^## Follow-up 2 on pull request #14\n/);
    expect(text).toContain('- On `src/a.js` line 3:\n  - @rev: Trim it.\n  - @rev: Also here.\n\n```diff\n@@ -3,1 +3,1 @@\n+x\n```');
    expect(text).toContain('(1 more unresolved thread left for a later follow-up.)');
    expect(text).toContain('### Also required\n\n- The `test` check passes');
  });

  it('keeps the pull request’s criteria as they are and numbers the new ones on, skipping taken ids', () => {
    const kept = [
      { id: 'c1', text: 'a', kind: 'command' as const, command: 'npm test' },
      { id: 'c3', text: 'b', kind: 'semantic' as const },
    ];
    const out = followUpCriteria(kept, [
      { id: 'c1', text: 'new one', kind: 'semantic' },
      { id: 'c2', text: 'new two', kind: 'semantic' },
    ]);
    expect(out.criteria.map((c) => `${c.id}:${c.text}`)).toEqual(['c1:a', 'c3:b', 'c4:new one', 'c5:new two']);
    expect(out.added).toEqual(['c4', 'c5']);
  });

  it('a head that is not the one crew last judged was pushed by hand', () => {
    expect(handPushed({ crewHead: 'a'.repeat(40) }, 'a'.repeat(40))).toBe(false);
    expect(handPushed({ crewHead: 'a'.repeat(40) }, 'b'.repeat(40))).toBe(true);
    expect(handPushed({ crewHead: null }, 'b'.repeat(40))).toBe(false);
    expect(handPushed(null, 'b'.repeat(40))).toBe(false);
  });

  it('a follow-up trusts the first run’s base, never its model-written head; older records read without the field', () => {
    const plain = view(['success']).run;
    expect(reviewedSha(plain)).toBe(plain.base.sha);
    const followUp = {
      ...plain,
      base: { branch: 'main', sha: 'f'.repeat(40) },
      followUp: {
        pull: 3,
        k: 1,
        fromRun: 1,
        branch: 'crew/12/r1/integration',
        source: 'review' as const,
        reviewedSha: 'a'.repeat(40),
        crewHead: 'e'.repeat(40),
        threads: [],
        added: [],
      },
    };
    expect(reviewedSha(followUp)).toBe('a'.repeat(40));
    const { followUp: _, ...older } = plain;
    expect(RunRecordSchema.parse(older).followUp).toBeNull();
    expect(RunRecordSchema.parse(JSON.parse(JSON.stringify(followUp))).followUp).toMatchObject({ k: 1, threads: [], added: [] });
  });
});
