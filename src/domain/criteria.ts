import { z } from 'zod';
import { text, type Stored } from './stored-shape';

/**
 * Done criteria: what they are, where they come from in an issue, and the pure
 * checks that catch vague, hollow or unrunnable ones. (endless8: command criteria
 * exit 0 when met, 1 when not, ≥2 on error; semantic criteria are judged with evidence.)
 */

export const CriterionSchema = z.looseObject({
  id: text,
  text,
  kind: z.enum(['command', 'semantic']),
  /** For command criteria: the shell command the critic runs. */
  command: text.optional(),
});
export type Criterion = Stored<typeof CriterionSchema>;

const HEADING = /^\s{0,3}(?:#{1,6}\s*|\*\*)?(done when|acceptance criteria|definition of done|success criteria)\b[^\n]*$/i;
const ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+?)\s*$/;
const CHECKBOX = /^\s*[-*+]\s+\[[ xX]\]\s+(.+?)\s*$/;

/**
 * The criteria an issue states itself: the list under a "Done when" (or "Acceptance
 * criteria") heading, or failing that, its checklist items.
 */
export function statedCriteria(body: string): string[] {
  const lines = body.split(/\r?\n/);
  const start = lines.findIndex((l) => HEADING.test(l));
  if (start >= 0) {
    const items: string[] = [];
    const inline = /:\s*(\S.*)$/.exec(lines[start]!.replace(/\*\*/g, ''));
    if (inline && !ITEM.test(lines[start]!)) items.push(inline[1]!.trim());
    for (const line of lines.slice(start + 1)) {
      if (/^\s*#{1,6}\s/.test(line)) break;
      const m = ITEM.exec(line);
      if (m) items.push(m[1]!);
      else if (line.trim() !== '' && items.length) break;
    }
    if (items.length) return items;
  }
  return lines.map((l) => CHECKBOX.exec(l)?.[1]).filter((x): x is string => !!x);
}

/** Equal but for case, markdown emphasis, punctuation and spacing. */
function sameStatement(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[`*_"'.,;:!?()]/g, '')
      .replace(/\s+/g, ' ')
      .trim();
  return norm(a) === norm(b);
}

/**
 * The issue's own criteria (numbered from 1, as intake is shown them) that a submission
 * left out. Intake may rephrase a stated criterion or turn it into a command, but then
 * it names the number it restates; otherwise only the same statement counts.
 */
export function droppedCriteria(stated: string[], submitted: ReadonlyArray<{ text: string; restates?: number }>): Array<{ n: number; text: string }> {
  return stated.map((text, i) => ({ n: i + 1, text })).filter(({ n, text }) => !submitted.some((c) => c.restates === n || sameStatement(c.text, text)));
}

const VAGUE: Array<[RegExp, string]> = [
  [/\bfast(er)? enough\b|\bquick(ly)?\b|\bperformant\b|\bsnappy\b|\bresponsive\b/i, 'how fast is fast enough'],
  [/\bclean(er)? code\b|\bclean\b|\bneat\b|\belegant\b|\bbeautiful\b/i, 'what "clean" means here'],
  [/\breadable\b|\bmaintainable\b|\bwell[- ]structured\b/i, 'how readability or maintainability is judged'],
  [/\buser[- ]friendly\b|\bintuitive\b|\beasy to use\b|\bnice(r)?\b/i, 'what a user must be able to do'],
  [/\bbetter\b|\bimproved?\b|\boptimi[sz]ed?\b/i, 'better than what, by how much'],
  [/\brobust\b|\breliable\b|\bscalable\b|\bstable\b/i, 'which failures or loads it must handle'],
  [/\bproperly\b|\bas expected\b|\breasonabl[ey]\b|\bappropriate(ly)?\b/i, 'what exactly is expected'],
];

/** Why a semantic criterion cannot be checked as written, or undefined when it can. */
export function vagueness(text: string): string | undefined {
  if (/\d/.test(text)) return undefined; // a number usually makes it measurable ("under 200 ms", "at least 3 tests")
  for (const [re, why] of VAGUE) if (re.test(text)) return why;
  return undefined;
}

const HOLLOW = [
  /^(?:it|the (?:code|task|feature|change|work))?\s*(?:works?|is working|runs?)(?:\s+(?:correctly|properly|fine|well|as (?:expected|intended)))?\.?$/i,
  /^(?:the )?(?:task|work|feature|change|implementation)?\s*(?:is )?(?:done|complete|completed|finished|implemented)\.?$/i,
  /^no (?:errors|bugs|issues|problems)\.?$/i,
  /\bworks correctly\b/i,
  /\btask is (?:done|complete|finished)\b/i,
];

/** True for criteria that cannot fail: "works correctly", "is done". */
export function isHollow(text: string): boolean {
  const t = text.trim();
  return t.length < 4 || HOLLOW.some((re) => re.test(t));
}

/** Why a command criterion cannot run as a command, or undefined when it looks runnable. */
export function commandProblem(command: string | undefined): string | undefined {
  if (!command || !command.trim()) return 'it has no command';
  if (/[\r\n]/.test(command)) return 'the command spans several lines; use one command (join with &&)';
  if (command.length > 500) return 'the command is longer than 500 characters';
  const first = command.trim().split(/\s+/)[0]!;
  if (!/^[A-Za-z0-9_./@:+=-]+$/.test(first)) return `'${first}' does not look like a program name`;
  const quotes = ((command.match(/'/g)?.length ?? 0) % 2) + ((command.replace(/\\"/g, '').match(/"/g)?.length ?? 0) % 2);
  if (quotes) return 'the command has an unbalanced quote';
  return undefined;
}

/** Config criteria (`criteria:` in crew.yml) are commands. */
export function configCriteria(commands: string[], startAt: number): Criterion[] {
  return commands.map((command, i) => ({ id: `c${startAt + i}`, text: `\`${command}\` exits 0`, kind: 'command' as const, command }));
}

/** One line for people: the statement, and the command when there is one. */
export function describeCriterion(c: Criterion): string {
  if (c.kind !== 'command' || !c.command || c.text.includes(c.command)) return c.text;
  return `${c.text} (\`${c.command}\`)`;
}
