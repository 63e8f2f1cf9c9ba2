/**
 * The allow and deny lists for run_command. A seatbelt, not a boundary: a script the
 * model writes and then runs (`npm test`) gets past any list, which is why commands
 * also run in the sandbox. Pure.
 */

export interface CommandPolicy {
  allow: string[];
  deny: string[];
}

/** The simple commands inside a shell line: split on ; && || | & newlines and command substitution. */
export function commandSegments(command: string): string[] {
  return command
    .replace(/\$\(|`|\)/g, ';')
    .split(/;|&&|\|\||\||&|\n/)
    .map((s) => s.trim().replace(/\s+/g, ' '))
    .map((s) => s.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, '')) // leading VAR=value assignments
    .map((s) => s.replace(/^(?:exec|command|nohup|time|env)\s+/, ''))
    .filter(Boolean);
}

function startsWithWord(segment: string, prefix: string): boolean {
  const p = prefix.trim().replace(/\s+/g, ' ');
  return segment === p || segment.startsWith(`${p} `) || segment.startsWith(`${p}/`) || segment.endsWith(`/${p}`) || segment.includes(`/${p} `);
}

export function checkCommand(command: string, policy: CommandPolicy): { ok: true } | { ok: false; reason: string } {
  if (!command.trim()) return { ok: false, reason: 'the command is empty' };
  const segments = commandSegments(command);
  for (const seg of segments) {
    const denied = policy.deny.find((d) => startsWithWord(seg, d));
    if (denied) return { ok: false, reason: `'${seg}' is denied by the command policy (matches '${denied}')` };
  }
  if (policy.allow.length) {
    const stray = segments.find((seg) => !policy.allow.some((a) => startsWithWord(seg, a)));
    if (stray) return { ok: false, reason: `'${stray}' is not on the allowed list (${policy.allow.join(', ')})` };
  }
  return { ok: true };
}
