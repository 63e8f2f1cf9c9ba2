import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerTool, NotAccepted } from '../../../src/agents/submission';

const Verdict = z.object({ verdict: z.enum(['PASS', 'FAIL']), reasons: z.array(z.string().min(1)) });

/** The one final tool every structured answer goes through (submission, resolver, critic). */
describe('answerTool', () => {
  it('gives the model the schema, takes a valid input, and returns what accept says', async () => {
    const seen: unknown[] = [];
    const tool = answerTool({ name: 'submit_verdict', description: 'd', schema: Verdict }, (v) => {
      seen.push(v);
      return 'Recorded.';
    });
    expect(tool.final).toBe(true);
    expect(tool.spec).toMatchObject({ name: 'submit_verdict', input_schema: { type: 'object', required: ['verdict', 'reasons'] } });
    await expect(tool.run({ verdict: 'PASS', reasons: ['ok'] })).resolves.toBe('Recorded.');
    expect(seen).toEqual([{ verdict: 'PASS', reasons: ['ok'] }]);
  });

  it('refuses an input its schema refuses, naming every field, and says to call it again; accept never sees it', async () => {
    const rejected: string[][] = [];
    const tool = answerTool({ name: 'submit_verdict', description: 'd', schema: Verdict }, () => 'never', { rejected: (p) => void rejected.push(p) });
    const e = await Promise.resolve()
      .then(() => tool.run({ verdict: 'MAYBE', reasons: [''] }))
      .catch((x: unknown) => x as Error);
    expect(e).toBeInstanceOf(NotAccepted);
    expect((e as Error).message).toMatch(/^Not accepted:\n- verdict: .+\n- reasons\.0: .+\nFix these and call submit_verdict again\.$/);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.map((p) => p.split(':')[0])).toEqual(['verdict', 'reasons.0']);
  });

  it('passes on the checks of accept: NotAccepted is reported as a rejection, any other error is not', async () => {
    const rejected: string[][] = [];
    let calls = 0;
    const tool = answerTool(
      { name: 'submit_verdict', description: 'd', schema: Verdict },
      (v) => {
        calls++;
        if (v.verdict === 'FAIL' && !v.reasons.length) throw new NotAccepted(['reasons: a FAIL needs a reason'], 'submit_verdict');
        if (v.verdict === 'FAIL') throw new Error('Not accepted: a message of its own');
        return 'Recorded.';
      },
      { rejected: (p) => void rejected.push(p) },
    );
    await expect(tool.run({ verdict: 'FAIL', reasons: [] })).rejects.toThrow('- reasons: a FAIL needs a reason\nFix these and call submit_verdict again.');
    await expect(tool.run({ verdict: 'FAIL', reasons: ['x'] })).rejects.toThrow('Not accepted: a message of its own');
    expect(calls).toBe(2);
    expect(rejected).toEqual([['reasons: a FAIL needs a reason']]);
  });
});
