/**
 * Where crew's words are read, and so how they are written. On GitHub they are markdown in a
 * comment: commands are `/crew …` comments, answers are replies, a run is run k of its issue,
 * links are markdown links. At the terminal of a local run they are plain text: commands are
 * what the person types (the registry's `local` spelling, domain/commands.ts), answers go to the
 * prompt, local run N is "run N", and a link is its target. The renderers (render/) and the
 * steps' texts take a Surface and say everything that differs through it, so nothing rewrites
 * text after it is written. Pure.
 */

import { COMMANDS, type KnownKind } from './commands';
import { isTerminal, type Phase } from './run-state';
import { inert } from '../text/inert';
import { details, hiddenMarker } from '../text/markdown';

/** The commands only crew on GitHub takes (the registry's `local: { at: 'none' }`; a test holds the two together). */
export const GITHUB_ONLY = ['fix', 'retro', 'remember'] as const;
/** The commands every surface can give. */
export type Everywhere = Exclude<KnownKind, (typeof GITHUB_ONLY)[number]>;

export interface Surface {
  readonly name: 'github' | 'terminal';

  // How things are said.

  /** A command as crew suggests it, as code (`/crew retry t1`); null where it cannot be given here (say nothing about it then). */
  command(kind: Everywhere, args?: string): string;
  command(kind: KnownKind, args?: string): string | null;
  /** Giving a command, in a sentence: "comment `/crew run`"; at the terminal "type `crew run "…"`". */
  give(kind: Everywhere, args?: string): string;
  give(kind: KnownKind, args?: string): string | null;
  /** Whether advice already tells the person a command to give (so crew does not add another). */
  namesACommand(text: string): boolean;
  /** Where a person answers crew's questions ("Reply in a comment"). */
  readonly answerWhere: string;
  /** How a person answers crew's questions, and who may, as whole sentences. */
  readonly answerHow: string;
  /** How else a person answers a decision crew asks for, in a list of choices ("answer in a comment (or …)"). */
  readonly answerOr: string;
  /** A run's number as the person knows it: run k of its issue on GitHub; at the terminal, local run N (run 1 of issue N). */
  runNumber(issue: number, run: number): number;
  /** "run 2 of issue #4"; at the terminal "run 4". */
  runOfIssue(issue: number, run: number): string;
  /** What a job's log is called, as the label of its link (`workflow run`; at the terminal `log`). */
  readonly runLogLabel: string;
  /** The small-print link to a job's log under a failure ("[Workflow log](…)"; at the terminal "Log: …"). */
  runLog(url: string): string;
  /** "Check the workflow log for details". */
  readonly seeTheLog: string;
  /** What a run's result is: a pull request on GitHub, a branch at the terminal. */
  readonly resultName: string;
  /** Why crew does not merge when `auto_merge` is off (at the terminal: local runs never merge). */
  readonly noAutoMerge: string;
  /** The commands a person can give now, as the plan comment's last line. */
  commandsNow(run: { phase: Phase }, offered: string[]): string;
  /** Where the retrospective is read: its comment on GitHub, its file at the terminal. */
  retrospectiveAt(comment: string, file: string): string;

  // How things look.

  bold(text: string): string;
  heading(text: string): string;
  /** A link; `code` shows the label as code (a branch, a file). At the terminal: the label, and the target when it differs. */
  link(label: string, url: string, code?: boolean): string;
  /** A link to another comment: at the terminal, where comments are shown as they come, the label alone. */
  commentLink(label: string, url: string): string;
  /** Small print under a comment. */
  small(text: string): string;
  /** A folded section; `tight` leaves out the blank line before the fold's end (some of crew's comments are written so). */
  details(summary: string, body: string, tight?: boolean): string;
  checkbox(done: boolean, text: string): string;
  /** A warning set apart (GitHub's `> [!WARNING]` alert); `more` are further quoted lines under it. */
  warning(text: string, more?: string[]): string;
  /** A mermaid diagram, or null where nothing draws one. */
  diagram(source: string[]): string | null;
  /** Text a model wrote, made inert where crew posts it (text/inert.ts): it mentions, links and closes nothing. At the terminal it is shown as written. */
  modelText(text: string, within?: 'markdown' | 'html'): string;
  /** crew's hidden marker: machine-read on every surface (finding its comments), never shown. */
  marker(name: string, fields?: Record<string, string | number>): string;
}

const byKind = (kind: KnownKind) => COMMANDS.find((c) => c.kind === kind)!;
const code = (text: string) => `\`${text}\``;
const withArgs = (usage: string, args?: string) => (args ? `${usage} ${args}` : usage);

/** GitHub's comments, as markdown; also the form of the documents crew writes on every surface (the report, report.md, the retrospective). */
export const GITHUB: Surface = {
  name: 'github',
  command: (kind: KnownKind, args?: string) => code(withArgs(`/crew ${kind}`, args)),
  give: (kind: KnownKind, args?: string) => `comment ${code(withArgs(`/crew ${kind}`, args))}`,
  namesACommand: (text) => text.includes('/crew '),
  answerWhere: 'Reply in a comment',
  answerHow: 'Reply in a comment (or with `/crew answer <text>`). Only people with write access can answer.',
  answerOr: 'answer in a comment (or `/crew answer <text>`)',
  runNumber: (_issue, run) => run,
  runOfIssue: (issue, run) => `run ${run} of issue #${issue}`,
  runLogLabel: 'workflow run',
  runLog: (url) => `[Workflow log](${url})`,
  seeTheLog: 'Check the workflow log for details',
  resultName: 'Pull request',
  noAutoMerge: '`auto_merge` is off in `.github/crew.yml`, so a person merges it',
  commandsNow: (_run, offered) => `**Commands now:** ${offered.map(code).join(' · ')}`,
  retrospectiveAt: (comment) => comment,
  bold: (text) => `**${text}**`,
  heading: (text) => `### ${text}`,
  link: (label, url, asCode) => `[${asCode ? code(label) : label}](${url})`,
  commentLink: (label, url) => `[${label}](${url})`,
  small: (text) => `<sub>${text}</sub>`,
  details: (summary, body, tight) => (tight ? `<details><summary>${summary}</summary>\n\n${body}\n</details>` : details(summary, body)),
  checkbox: (done, text) => `- [${done ? 'x' : ' '}] ${text}`,
  warning: (text, more = []) => [`> [!WARNING]`, `> ${text}`, ...more.map((l) => `> ${l}`)].join('\n'),
  diagram: (source) => ['```mermaid', ...source, '```'].join('\n'),
  modelText: (text, within) => inert(text, within),
  marker: hiddenMarker,
};

/** What `crew status` knows beyond the run's state. */
export interface TerminalFacts {
  /** No crew process is working on the run any more (stopped at once, or the machine went down). */
  stopped?: boolean;
}

/** The terminal of local run `run` (run 1 of issue `run`): what the person types, and plain text. */
export function terminalSurface(run: number, facts: TerminalFacts = {}): Surface {
  const command = (kind: KnownKind, args?: string): string | null => {
    const local = byKind(kind).local;
    if (local.at === 'none') return null;
    return code(local.at === 'cli' ? local.line(run) : withArgs(kind, args));
  };
  return {
    name: 'terminal',
    command: command as Surface['command'],
    give: ((kind: KnownKind, args?: string) => {
      const c = command(kind, args);
      return c && `type ${c}`;
    }) as Surface['give'],
    // A command here is one of the code spans `command` writes (its start: `retry` is also `retry <task>`).
    namesACommand: (text) =>
      COMMANDS.some((c) => {
        const given = command(c.kind);
        return given !== null && text.includes(given.slice(0, -1));
      }),
    answerWhere: 'Answer at the prompt',
    answerHow: 'Answer at the prompt.',
    answerOr: 'answer at the prompt (`answer <text>`)',
    runNumber: (issue) => issue,
    runOfIssue: (issue) => `run ${issue}`,
    runLogLabel: 'log',
    runLog: (url) => `Log: ${url}`,
    seeTheLog: 'See the log for details',
    resultName: 'Result branch',
    noAutoMerge: 'local runs never merge: review the result branch and merge it yourself',
    commandsNow: (r) => {
      const waiting = r.phase === 'ESCALATING' || r.phase === 'AWAITING_APPROVAL';
      const next = isTerminal(r.phase)
        ? 'crew run "…" (a new run) · crew list'
        : waiting
          ? `crew run --resume ${run} (crew asks again, at the prompt)`
          : `crew run --resume ${run}${facts.stopped ? ' (no crew process is working on it)' : ''}`;
      return `Next: ${next}`;
    },
    retrospectiveAt: (_comment, file) => file,
    bold: (text) => text,
    heading: (text) => text,
    link: (label, url) => (label === url ? label : `${label} (${url})`),
    commentLink: (label) => label,
    small: (text) => text,
    details: (summary, body) => `▸ ${summary}\n\n${body}`,
    checkbox: (done, text) => `${done ? '✔' : '☐'} ${text}`,
    warning: (text, more = []) => [`⚠ ${text}`, ...more.map((l) => `> ${l}`)].join('\n'),
    diagram: () => null,
    modelText: (text) => text,
    marker: hiddenMarker,
  };
}

/** The first letter up: a `give` that starts a sentence. */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
