/**
 * Text for a GitHub Actions job log that the runner cannot read as a workflow command.
 *
 * The runner reads a command in two forms (actions/runner `ActionCommand.TryParseV2`, then `TryParse`):
 * `::name::data` once leading white space is trimmed, and the older `##[name]data` anywhere in a line.
 * It splits output into lines at `\n`, `\r` and `\r\n`. So one line of model text such as
 * `… ##[add-mask]1` masks every "1" and makes the runner drop the job's outputs, and
 * `::stop-commands::x` silences every later annotation and mask of the step.
 *
 * Every line crew writes to the log (`Log.info`, `Log.warn`, trajectory groups, the failure) goes
 * through `inertLog`: `##[` becomes `## [` anywhere, and a line whose first characters after white
 * space are `::` gets `: :` instead. Nothing else changes, so the log still reads as written.
 */
export function inertLog(text: string): string {
  return text
    .split(/(\r\n|\r|\n)/)
    .map((part, i) => (i % 2 ? part : inertLine(part)))
    .join('');
}

/** Leading white space as .NET's `TrimStart` sees it (separators, U+0009–U+000D, U+0085), and zero-width marks, to be safe. */
const LEADING = /^[\p{Z}\p{Cc}\u0085\u180e\u200b-\u200d\u2060\ufeff]*/u;

function inertLine(line: string): string {
  const out = line.replace(/##\[/g, '## [');
  const lead = LEADING.exec(out)![0].length;
  return out.startsWith('::', lead) ? `${out.slice(0, lead)}: :${out.slice(lead + 2)}` : out;
}
