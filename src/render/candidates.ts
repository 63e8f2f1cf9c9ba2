import type { Selection } from '../domain/candidate-record';
import type { RunView } from '../domain/run-state';
import type { Surface } from '../domain/surface';
import { cell, codeSpan } from '../text/markdown';

/** At most this many failing tests are named in a row; the rest are counted. */
const SHOWN = 5;

/**
 * A task's parallel attempts (#50) for the plan comment and the report: each candidate with its
 * branch, its result (tests fixed, tests failing by name, why it fell), which one was kept and
 * why, or that none was. Test names and findings quote the candidates' own files: model text, so
 * every piece goes out inert.
 */
function selectionLines(sel: Selection, s: Surface, branchLink?: (branch: string) => string): string[] {
  const inert = s.modelText;
  const out = [
    `${s.bold(`Attempts of ${sel.task}`)} (${sel.candidates.length} in parallel, judged on their own branches against the base)`,
    '',
    '| Attempt | Branch | Result | Failing tests |',
    '|---|---|---|---|',
  ];
  for (const c of sel.candidates) {
    const mark = sel.chosen === c.n ? '✅ kept' : c.qualified ? 'qualified' : '❌';
    const result = c.qualified ? `${c.fixed} fixed · ${c.changedLines} lines changed` : c.fell.map((f) => inert(cell(f.replace(/\s+/g, ' ')))).join('; ');
    // The standing names at most ten (and says how many more): the count in all is what the row's "more" says.
    const total = c.failingCount ?? c.failing.length;
    const named = c.failing.slice(0, Math.min(SHOWN, total));
    const failing = named.length
      ? [...named.map((f) => inert(codeSpan(f))), ...(total > named.length ? [`${total - named.length} more`] : [])].join(', ')
      : '–';
    out.push(`| ${c.n} ${mark} | ${branchLink ? s.link(c.branch, branchLink(c.branch), true) : codeSpan(c.branch)} | ${result} | ${failing} |`);
  }
  out.push('', sel.chosen === null ? `None qualified: ${inert(sel.reason)}` : `Kept ${inert(sel.reason)}`);
  return out;
}

/** Every task's attempts the run judged, in plan order. */
export function runSelectionLines(view: RunView, s: Surface, branchLink?: (branch: string) => string): string[] {
  const out: string[] = [];
  for (const t of view.plan?.tasks ?? []) {
    const sel = view.tasks.get(t.id)?.selection;
    if (sel) out.push('', ...selectionLines(sel, s, branchLink));
  }
  return out;
}

/**
 * Tasks that run fewer parallel attempts than asked for (#50): each attempt is a work job of its own and
 * `max_parallel` bounds the jobs at once, so a task gets at most that many. Said, not done silently.
 */
export function attemptsCutLines(view: RunView): string[] {
  const out: string[] = [];
  for (const t of view.plan?.tasks ?? []) {
    const rec = view.tasks.get(t.id);
    if (!rec?.attemptsAsked) continue;
    const ran = rec.parallel ?? rec.selection?.candidates.length ?? 1;
    const attempts = `${ran} parallel attempt${ran === 1 ? '' : 's'} of the ${rec.attemptsAsked} asked for`;
    // Said while they run, and after (settling keeps the number asked): then in the past tense.
    out.push(
      rec.parallel !== undefined && rec.selection === undefined
        ? `${t.id} runs ${attempts}: each is a job of its own, and \`max_parallel\` (${ran}) bounds the jobs at once. Raise \`max_parallel\` in .github/crew.yml for more.`
        : `${t.id} ran ${attempts}: each was a job of its own, and \`max_parallel\` (${ran}) bounded the jobs at once. Raise \`max_parallel\` in .github/crew.yml for more next time.`,
    );
  }
  return out;
}
