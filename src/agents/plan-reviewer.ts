import { z } from 'zod';
import { describeCriterion } from '../domain/criteria';
import type { Plan } from '../domain/plan';
import type { Finding } from '../domain/plan-review';
import type { Usage } from '../domain/run-state';
import { askForSubmission, type AgentCall } from './submission';
import { eyesSection, type Eyes } from './read-only-tools';

const ReviewSchema = z.object({
  verdict: z.enum(['PASS', 'FAIL']),
  findings: z
    .array(
      z.object({
        aspect: z.enum(['form', 'content', 'consistency', 'completeness', 'adversarial']),
        task: z.string().optional(),
        problem: z.string().trim().min(1),
        suggestion: z.string().optional(),
      }),
    )
    .default([]),
});

/** The model half of the plan review (4QV+): form, content, consistency, completeness, and ways to game the criteria. */
export async function reviewPlan(
  call: AgentCall,
  request: { title: string; body: string },
  plan: Plan,
  eyes?: Eyes,
): Promise<{ verdict: 'PASS' | 'FAIL'; findings: Finding[]; usage: Usage }> {
  const firstMessage = [
    `Request: ${request.title}`,
    '',
    request.body || '(no description)',
    '',
    '## Plan',
    plan.summary,
    '',
    'Done criteria:',
    ...plan.criteria.map((c) => `- ${c.id} (${c.kind}): ${describeCriterion(c)}`),
    '',
    ...plan.tasks.flatMap((t) => [
      `### ${t.id}: ${t.title} (${t.persona}, ${t.tier}${t.dependsOn.length ? `, after ${t.dependsOn.join(', ')}` : ''})`,
      t.description,
      `Files: ${t.files.join(', ') || '-'}`,
      `Criteria: ${t.criteria.join('; ') || '(none)'}`,
      '',
    ]),
    ...eyesSection(eyes, 'submit_review'),
  ].join('\n');
  const { value, usage } = await askForSubmission({
    ...call,
    firstMessage,
    ...(eyes?.look ? { look: eyes.look } : {}),
    tool: { name: 'submit_review', description: 'Submit the verdict on the plan, with findings.', schema: ReviewSchema },
    check: (raw) =>
      raw.verdict === 'FAIL' && raw.findings.length === 0 ? { ok: false, errors: ['findings: a FAIL needs at least one finding'] } : { ok: true, value: raw },
  });
  return { verdict: value.verdict, findings: value.findings, usage };
}
