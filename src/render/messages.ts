import { COMMAND_HELP } from '../domain/commands';
import { inert } from '../text/inert';
import { hiddenMarker } from '../text/markdown';

/** Commands this version answers; the rest are listed as coming. */
export const AVAILABLE = new Set(['run', 'plan', 'approve', 'revise', 'answer', 'accept', 'retry', 'abort', 'resume', 'status', 'retro', 'remember', 'help']);

export function helpComment(unknownWord?: string): string {
  const lines: string[] = [];
  if (unknownWord !== undefined) lines.push(`crew does not know the command \`/crew ${unknownWord}\`.`, '');
  lines.push('**crew commands**', '', '| Command | What it does |', '|---|---|');
  for (const c of COMMAND_HELP.filter((c) => AVAILABLE.has(c.kind))) lines.push(`| \`${c.usage}\` | ${c.what} |`);
  const coming = COMMAND_HELP.filter((c) => !AVAILABLE.has(c.kind));
  if (coming.length) lines.push('', `Not available in this version yet: ${coming.map((c) => `\`${c.usage}\``).join(', ')}.`);
  lines.push('', 'Only people with write access to this repository can use crew.', hiddenMarker('help'));
  return lines.join('\n');
}

export function refusalComment(login: string, permission: string): string {
  return `@${login}, crew only takes commands from people with write access to this repository (your access: ${permission}). Nothing was started.`;
}

export function failureComment(step: string, message: string, runLink: string, next: string): string {
  return [
    `**crew stopped** during ${step}.`,
    '',
    inert(message),
    '',
    `**What you can do:** ${next}`,
    '',
    `<sub>[Workflow log](${runLink})</sub>`,
    hiddenMarker('failure'),
  ].join('\n');
}
