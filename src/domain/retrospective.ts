import type { KnowledgeEntry } from './knowledge';
import { cell, hiddenMarker } from '../text/markdown';
import { inert } from '../text/inert';
import type { Quality, RunStatus } from './judgment';

/**
 * The retrospective (claude-crew's retrospector): after a run, the model proposes
 * improvements and skills, each scored on four axes; crew scores, filters and caps
 * them, and lists memory candidates a maintainer can add to the knowledge base.
 * Pure rules and rendering; the retrospect job gathers the facts.
 */

export type RetroMode = 'full' | 'light';

/** Full when something went wrong (or a person asked with `/crew retro`); light after a clean run. */
export function retroMode(o: { status: RunStatus; quality: Quality; completeness: number; failedTasks: string[] }, forced: boolean): RetroMode {
  if (forced) return 'full';
  if (o.status === 'failure' || o.status === 'partial') return 'full';
  if (o.quality === 'RED') return 'full';
  if (o.quality === 'YELLOW' && o.completeness < 80) return 'full';
  if (o.failedTasks.length > 0) return 'full';
  return 'light';
}

export interface Proposal {
  kind: 'improvement' | 'skill';
  title: string;
  body: string;
  /** Each 1–5. */
  recurrence: number;
  impact: number;
  generality: number;
  feasibility: number;
}

export type Decision = 'adopt' | 'hold' | 'discard';

export type ScoredProposal = Proposal & { score: number; decision: Decision };

/** Below this a proposal is discarded; between it and the threshold, held. */
export const HOLD_FLOOR = 2.5;

/** recurrence 30%, impact 30%, generality 20%, feasibility 20%, to two decimals. */
export function proposalScore(p: Pick<Proposal, 'recurrence' | 'impact' | 'generality' | 'feasibility'>): number {
  // Weights in hundredths, so integer scores give an exact result with no float noise.
  return Math.round(p.recurrence * 30 + p.impact * 30 + p.generality * 20 + p.feasibility * 20) / 100;
}

export function classify(score: number, threshold: number): Decision {
  if (score >= threshold) return 'adopt';
  if (score >= HOLD_FLOOR) return 'hold';
  return 'discard';
}

export interface RetroCaps {
  full: { max_improvements: number; max_skills: number };
  light: { max_skills: number };
}

/**
 * Scores and sorts the proposals, then applies the caps to the adopted ones: a
 * proposal that scores high enough but is over its cap (or an improvement in light
 * mode) is held, not discarded. Each list is sorted by score, highest first.
 */
export function selectProposals(
  proposals: Proposal[],
  mode: RetroMode,
  caps: RetroCaps,
  threshold: number,
): { adopted: ScoredProposal[]; held: ScoredProposal[]; discarded: ScoredProposal[] } {
  const limits = mode === 'full' ? { improvement: caps.full.max_improvements, skill: caps.full.max_skills } : { improvement: 0, skill: caps.light.max_skills };
  const taken = { improvement: 0, skill: 0 };
  const out = { adopted: [] as ScoredProposal[], held: [] as ScoredProposal[], discarded: [] as ScoredProposal[] };
  const scored = proposals.map((p) => ({ ...p, score: proposalScore(p) })).sort((a, b) => b.score - a.score);
  for (const p of scored) {
    const decision = classify(p.score, threshold);
    if (decision === 'adopt' && taken[p.kind] < limits[p.kind]) {
      taken[p.kind]++;
      out.adopted.push({ ...p, decision });
    } else if (decision === 'discard') out.discarded.push({ ...p, decision });
    else out.held.push({ ...p, decision: 'hold' });
  }
  return out;
}

export interface MemoryCandidate {
  type: KnowledgeEntry['type'];
  content: string;
  confidence: number;
}

export const MAX_KNOWLEDGE_CHARS = 500;

/** One line of text, at most 500 characters, as a knowledge entry stores it. */
export function knowledgeContent(text: string): string {
  return text
    .trim()
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .slice(0, MAX_KNOWLEDGE_CHARS)
    .trimEnd();
}

const clampConfidence = (c: number) => (Number.isFinite(c) ? Math.max(0, Math.min(1, c)) : 0);

export function knowledgeEntry(c: MemoryCandidate, source: string, createdAt: string): KnowledgeEntry {
  return { type: c.type, content: knowledgeContent(c.content), source, confidence: clampConfidence(c.confidence), created_at: createdAt };
}

export interface Retrospective {
  mode: RetroMode;
  summary: string;
  wentWell: string[];
  wentWrong: string[];
  adopted: ScoredProposal[];
  held: ScoredProposal[];
  discarded: ScoredProposal[];
  memory: MemoryCandidate[];
  at: string;
}

export function retroMarker(issue: number, run: number): string {
  return hiddenMarker('retro', { issue, run });
}

/** Kept well under GitHub's 65,536-character limit for a comment. */
export const RETRO_LIMIT = 60_000;

const MAX_ITEMS = 20;

const oneLine = (text: string) => text.trim().replace(/\s*[\r\n]+\s*/g, ' ');

// Model text, cut, then made inert: no mention, image, markup (an HTML comment could pass for crew's marker) or closing keyword.
const clip = (text: string, max: number) => {
  const t = text.trim();
  return inert(t.length > max ? `${t.slice(0, max - 1)}…` : t);
};

const list = (heading: string, items: string[]) => {
  const kept = items.map(oneLine).filter(Boolean);
  if (!kept.length) return [];
  const extra = kept.length - MAX_ITEMS;
  return [`### ${heading}`, ...kept.slice(0, MAX_ITEMS).map((i) => `- ${clip(i, 500)}`), ...(extra > 0 ? [`- …and ${extra} more`] : []), ''];
};

const row = (p: ScoredProposal) =>
  `| ${p.decision === 'adopt' ? '✅ adopt' : '⏸ hold'} | ${p.kind} | **${clip(cell(p.title), 200)}**: ${clip(cell(p.body), 800)} | ${p.score.toFixed(2)} |`;

function body(r: Retrospective, ctx: { run: number }): string {
  const listed = [...r.adopted, ...r.held];
  const shown = listed.slice(0, MAX_ITEMS);
  const lines = [
    `## crew retrospective · run ${ctx.run} (${r.mode})`,
    '',
    clip(r.summary, 4000),
    '',
    ...list('What went well', r.wentWell),
    ...list('What went wrong', r.wentWrong),
  ];
  if (listed.length || r.discarded.length) {
    lines.push('### Proposals', '');
    if (shown.length) lines.push('| Decision | Kind | Proposal | Score |', '|---|---|---|---|', ...shown.map(row), '');
    if (listed.length > shown.length) lines.push(`…and ${listed.length - shown.length} more held.`, '');
    const n = r.discarded.length;
    if (n) lines.push(`${n}${shown.length ? ' other' : ''} proposal${n === 1 ? '' : 's'} scored too low and ${n === 1 ? 'was' : 'were'} discarded.`, '');
  }
  if (r.memory.length) {
    lines.push(
      '### Memory candidates',
      '',
      ...r.memory.map(
        (m, i) =>
          `${i + 1}. [${m.type}] ${clip(knowledgeContent(m.content), MAX_KNOWLEDGE_CHARS)} (confidence ${Number(clampConfidence(m.confidence).toFixed(2))})`,
      ),
      '',
      'A maintainer can comment `/crew remember <n>` to add one to `.github/crew/knowledge.jsonl` through a small pull request.',
    );
  }
  const text = lines.join('\n').trimEnd();
  if (text.length <= RETRO_LIMIT) return text;
  const note = '\n\n…the rest is cut to fit a comment.';
  const room = RETRO_LIMIT - note.length - 100;
  const cut = text.lastIndexOf('\n', room);
  return `${text.slice(0, cut > 0 ? cut : room)}${note}`;
}

/** The PR comment: a hidden marker first, so crew can find and update it. */
export function renderRetrospective(r: Retrospective, ctx: { issue: number; run: number }): string {
  return `${retroMarker(ctx.issue, ctx.run)}\n${body(r, ctx)}`;
}

/** The state file retrospective.md. */
export function renderRetrospectiveMd(r: Retrospective, ctx: { issue: number; run: number }): string {
  return `${body(r, ctx)}\n`;
}
