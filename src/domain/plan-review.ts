import { commandProblem, isHollow, type Criterion } from './criteria';
import type { Plan } from './plan';

/** A problem the plan reviewer found, in the 4QV+ aspects. */
export interface Finding {
  aspect: 'form' | 'content' | 'consistency' | 'completeness' | 'adversarial';
  task?: string;
  problem: string;
  suggestion?: string;
}

/**
 * The plan review's deterministic half: checks that need no model. A plan that
 * fails them goes back to the decomposer without spending a review call. (Protected
 * paths and the task count are the decomposer's own checks, `planBoundsProblems`: a
 * plan that breaks them never reaches review, so nobody can approve it anyway.)
 */
export function checkPlanRules(plan: Plan): Finding[] {
  const out: Finding[] = [];
  const criterion = (c: Criterion, where: string) => {
    if (isHollow(c.text))
      out.push({
        aspect: 'content',
        problem: `${where}: "${c.text}" cannot fail, so it proves nothing`,
        suggestion: 'state an observable result or a command that exits 0 only when it holds',
      });
    if (c.kind === 'command') {
      const p = commandProblem(c.command);
      if (p) out.push({ aspect: 'form', problem: `${where}: command criterion "${c.text}" is not runnable: ${p}` });
    }
  };
  if (plan.criteria.length === 0) out.push({ aspect: 'completeness', problem: 'the run has no done criteria' });
  for (const c of plan.criteria) criterion(c, `criterion ${c.id}`);
  for (const t of plan.tasks) {
    if (t.criteria.length === 0)
      out.push({
        aspect: 'completeness',
        task: t.id,
        problem: `task ${t.id} has no done criteria of its own`,
        suggestion: 'give it at least one checkable criterion',
      });
    for (const text of t.criteria)
      if (isHollow(text))
        out.push({
          aspect: 'content',
          task: t.id,
          problem: `task ${t.id}: "${text}" cannot fail, so it proves nothing`,
          suggestion: 'state an observable result',
        });
  }
  return out;
}

export function findingsText(findings: Finding[]): string {
  return findings.map((f) => `- [${f.aspect}]${f.task ? ` ${f.task}:` : ''} ${f.problem}${f.suggestion ? ` — ${f.suggestion}` : ''}`).join('\n');
}
