import { z } from 'zod';
import { CriterionSchema, type Criterion } from './criteria';
import { count, crewBranch, nullableText, text, type Stored } from './stored-shape';
import { FoundImageSchema } from './images';

/**
 * Follow-up runs: a writer's feedback on crew's own pull request (a `/crew` comment, a review, a
 * failed check) becomes a new run of the same issue that works on the pull request's branch.
 * What the run record keeps (FollowUpSchema), what intake is given (FollowUpMaterialSchema,
 * `followup.json` in the run folder, sanitised before it is stored), and the words built from
 * them. Pure.
 */

/** A review thread the follow-up addresses: its first comment (GitHub takes replies only to that one) and whether crew replied. */
export const FollowUpThreadSchema = z.looseObject({
  rootId: z.int().positive(),
  path: text,
  line: z.int().positive().nullable(),
  replied: z.boolean().default(false),
});
export type FollowUpThread = Stored<typeof FollowUpThreadSchema>;

/** run.json's `followUp`: which pull request, the how-manyth follow-up, the run it continues, and what the run may trust. */
export const FollowUpSchema = z.looseObject({
  /** crew's pull request the run updates. */
  pull: z.int().positive(),
  /** 1 for the first follow-up on the pull request, 2 for the next, … */
  k: z.int().positive(),
  /** The run whose pull request this is (the newest before this one). */
  fromRun: z.int().positive(),
  /** The pull request's head branch: the run integrates onto it, never replacing what is there. */
  branch: crewBranch,
  source: z.enum(['comment', 'review', 'ci']),
  /**
   * The first run's base: the repository's reviewed code. The pull request's head is model-written
   * (and maybe hand-pushed), so setup never runs on it as crew's user, and agent instructions come from here.
   */
  reviewedSha: text,
  /** The head crew last judged on the branch; a different head at the start means someone pushed by hand. */
  crewHead: nullableText,
  threads: z.array(FollowUpThreadSchema).default(() => []),
  /** Ids of the criteria this follow-up added (the rest are the pull request's earlier ones). */
  added: z.array(text).default(() => []),
});
export type FollowUp = Stored<typeof FollowUpSchema>;

const ThreadCommentSchema = z.looseObject({ author: text, body: text });
/** followup.json: what intake turns into new done criteria, every text already sanitised. */
export const FollowUpMaterialSchema = z.looseObject({
  feedback: text,
  /** Criteria a caller states outright (a failing check: "the `test` check passes"). */
  criteria: z.array(text).default(() => []),
  threads: z.array(
    z.looseObject({
      rootId: z.int().positive(),
      path: text,
      line: z.int().positive().nullable(),
      diffHunk: text,
      comments: z.array(ThreadCommentSchema),
    }),
  ),
  /** The pull request's criteria so far: kept as they are, and judged again. */
  kept: z.array(CriterionSchema),
  /** How many unresolved threads were left out to keep the prompt bounded. */
  leftOut: count.default(0),
  /** Who gave the feedback: a person (a comment or a review), or a failed CI run whose log tail it is. */
  source: z.enum(['comment', 'review', 'ci']).default('comment'),
  /** The images the feedback and the writers' review comments show (#36), with the texts that show them (#47): planning reads them with the issue's. */
  images: z.array(FoundImageSchema).default(() => []),
});
export type FollowUpMaterial = Stored<typeof FollowUpMaterialSchema>;

/** The most review threads one follow-up reads; the rest wait for the next one (the prompt stays bounded). */
export const MAX_THREADS = 20;

const where = (t: { path: string; line: number | null }) => `\`${t.path}\`${t.line ? ` line ${t.line}` : ' (outdated)'}`;

/**
 * What the follow-up must achieve, one item each, as intake's stated criteria (each must survive
 * as a criterion): the feedback, every review thread, every criterion a caller stated.
 */
export function followUpItems(m: FollowUpMaterial): string[] {
  return [
    ...(m.feedback.trim()
      ? [m.source === 'ci' ? `Make the failed check pass; what it printed: ${oneLine(m.feedback)}` : `Do what the reviewer asked: ${oneLine(m.feedback)}`]
      : []),
    ...m.threads.map((t) => `Address the review comment on ${where(t)}: ${oneLine(t.comments.map((c) => c.body).join(' / '))}`),
    ...m.criteria.map(oneLine),
  ];
}

/** The follow-up's part of the request: the feedback and each thread with its diff hunk, for intake and the planner. */
export function followUpSection(m: FollowUpMaterial, k: number, pull: number): string {
  const out = [`## Follow-up ${k} on pull request #${pull}`, '', 'The pull request is open and its earlier work stays; this follow-up changes it further.', ''];
  if (m.feedback.trim()) out.push(m.source === 'ci' ? "### What failed (the end of the failed CI job's log)" : '### Feedback', '', m.feedback.trim(), '');
  if (m.threads.length) {
    out.push('### Unresolved review comments', '');
    for (const t of m.threads) {
      out.push(`- On ${where(t)}:`);
      for (const c of t.comments) out.push(`  - @${c.author}: ${oneLine(c.body)}`);
      if (t.diffHunk.trim()) out.push('', '```diff', ...t.diffHunk.split('\n').slice(-12), '```', '');
    }
    if (m.leftOut) out.push(`(${m.leftOut} more unresolved thread${m.leftOut === 1 ? '' : 's'} left for a later follow-up.)`, '');
  }
  if (m.criteria.length) out.push('### Also required', '', ...m.criteria.map((c) => `- ${oneLine(c)}`), '');
  return out.join('\n');
}

/** The pull request's criteria followed by intake's new ones, numbered on from them. */
export function followUpCriteria(kept: Criterion[], fresh: Criterion[]): { criteria: Criterion[]; added: string[] } {
  const taken = new Set(kept.map((c) => c.id));
  let n = kept.length;
  const added: Criterion[] = [];
  for (const c of fresh) {
    do n++;
    while (taken.has(`c${n}`));
    added.push({ ...c, id: `c${n}` });
  }
  return { criteria: [...kept, ...added], added: added.map((c) => c.id) };
}

/** Someone pushed to crew's branch after crew last judged it: the head the follow-up starts from is not crew's. */
export function handPushed(f: Pick<FollowUp, 'crewHead'> | null | undefined, startSha: string): boolean {
  return !!f && f.crewHead !== null && f.crewHead !== startSha;
}

function oneLine(s: string): string {
  return s.replace(/\s*\r?\n\s*/g, ' ').trim();
}
