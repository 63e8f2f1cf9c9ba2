import { runFolder } from '../domain/refs';
import type { StateSnapshot, StateTx } from '../ports';

/**
 * Messages between running workers (team-communication v8), kept in the run state.
 * Each message is its own file written by compare-and-swap, so concurrent senders
 * never overwrite each other, and reading never deletes anything: a worker tracks
 * what it has already delivered.
 */

export type MessageType = 'message' | 'broadcast' | 'shutdown_request' | 'shutdown_response';

export interface TeamMessage {
  id: string;
  from: string;
  to: string;
  type: MessageType;
  text: string;
  at: string;
}

export const inboxFolder = (issue: number, run: number, task: string) => `${runFolder(issue, run)}/inbox/${task}/`;

/** Ids sort in sending order: time first, then sender and a nonce to break ties. */
export function messageId(at: string, from: string, nonce: string): string {
  return `${at.replace(/[-:]/g, '').replace(/\.\d+Z$|Z$/, '')}-${from}-${nonce}`;
}

export function writeMessage(tx: StateTx, issue: number, run: number, message: TeamMessage): void {
  tx.write(`${inboxFolder(issue, run, message.to)}${message.id}.json`, `${JSON.stringify(message, null, 2)}\n`);
}

export function readInbox(r: Pick<StateSnapshot, 'read' | 'list'>, issue: number, run: number, task: string): TeamMessage[] {
  return r
    .list(inboxFolder(issue, run, task))
    .filter((p) => p.endsWith('.json'))
    .map((p) => {
      try {
        return JSON.parse(r.read(p)!) as TeamMessage;
      } catch {
        return undefined;
      }
    })
    .filter((m): m is TeamMessage => m !== undefined)
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** A message as the model reads it between turns. */
export function teammateBlock(m: TeamMessage): string {
  const text = m.text.replace(/<\/teammate-message>/g, '</ teammate-message>');
  return `<teammate-message from="${m.from}" type="${m.type}">\n${text}\n</teammate-message>`;
}
