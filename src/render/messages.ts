import { COMMANDS } from '../domain/commands';
import type { Surface } from '../domain/surface';
import { hiddenMarker } from '../text/markdown';

export function helpComment(unknownWord?: string): string {
  const lines: string[] = [];
  if (unknownWord !== undefined) lines.push(`crew does not know the command \`/crew ${unknownWord}\`.`, '');
  lines.push('**crew commands**', '', ...commandTable());
  lines.push('', 'Only people with write access to this repository can use crew.', hiddenMarker('help'));
  return lines.join('\n');
}

/** The commands as a markdown table: `/crew help` and the README's Commands section. */
export function commandTable(): string[] {
  return ['| Command | What it does |', '|---|---|', ...COMMANDS.map((c) => `| \`${c.usage}\` | ${c.help} |`)];
}

export function refusalComment(login: string, permission: string): string {
  return `@${login}, crew only takes commands from people with write access to this repository (your access: ${permission}). Nothing was started.`;
}

export function failureComment(step: string, message: string, runLink: string, next: string, s: Surface): string {
  return [
    `${s.bold('crew stopped')} during ${step}.`,
    '',
    s.modelText(message),
    '',
    `${s.bold('What you can do:')} ${next}`,
    '',
    s.small(s.runLog(runLink)),
    s.marker('failure'),
  ].join('\n');
}
