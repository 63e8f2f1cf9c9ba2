/** How long a reason may be on one line of a job log. */
export const LOG_REASON_CHARS = 300;

/**
 * A multi-line message (a refused tool call's "Not accepted:" and its list of problems) as one job
 * log line: list items joined by "; ", cut to `max` characters with "…". Line breaks and other
 * control characters never survive: the text may carry model-written words, and on GitHub a log
 * line that starts with `::` is a workflow command.
 */
export function logLine(message: string, max = LOG_REASON_CHARS): string {
  let out = '';
  for (const raw of message.split(/[\r\n\u2028\u2029]+/)) {
    const line = raw
      .replace(/\p{Cc}+/gu, ' ')
      .trim()
      .replace(/^[-*] +/, '');
    if (!line) continue;
    out = out ? `${out}${/:$/.test(out) ? ' ' : '; '}${line}` : line;
  }
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}
