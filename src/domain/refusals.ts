/**
 * How often crew tells one person, on one issue, that it will not act for them. Anyone can
 * comment on a public repository, and each refusal is a comment that notifies everyone
 * watching the issue; without a limit, a stranger's comments would make crew spam it. Pure.
 */

/** One refusal comment per person per issue in this window; refusals inside it get a 👎 reaction instead. */
export const REFUSAL_WINDOW_MS = 60 * 60_000;

/** Whether a refusal may be a comment, given when the person's last refusal comment on the issue was posted. */
export function refusalCommentDue(lastCommentAt: string | undefined, now: Date): boolean {
  if (lastCommentAt === undefined) return true;
  return now.getTime() - Date.parse(lastCommentAt) >= REFUSAL_WINDOW_MS;
}

/**
 * The file name for a login: GitHub logins are letters, digits and hyphens, compared
 * without case. Any other character is spelled as `_<hex>`, so a name is never a path.
 */
export function refusalKey(login: string): string {
  return login
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, (c) => `_${c.codePointAt(0)!.toString(16)}`)
    .slice(0, 200);
}
