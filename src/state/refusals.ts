import { z } from 'zod';
import { refusalKey } from '../domain/refusals';
import type { Stored } from '../domain/stored-shape';
import type { StateSnapshot, StateTx } from '../ports';
import { readChecked } from './run-files';

/** When crew last posted a refusal to a person on an issue: `issue-<N>/refusals/<login>.json` on crew/state. */
export const RefusalSchema = z.looseObject({
  login: z.string(),
  lastCommentAt: z.iso.datetime({ message: 'expected a time such as 2026-01-31T12:00:00Z' }),
});
export type RefusalRecord = Stored<typeof RefusalSchema>;

export const refusalsFolder = (issue: number) => `issue-${issue}/refusals/`;
const refusalPath = (issue: number, login: string) => `${refusalsFolder(issue)}${refusalKey(login)}.json`;

export function readRefusal(r: Pick<StateSnapshot, 'read' | 'list'>, issue: number, login: string): RefusalRecord | undefined {
  return readChecked(r, refusalPath(issue, login), RefusalSchema);
}

export function writeRefusal(tx: StateTx, issue: number, rec: RefusalRecord): void {
  tx.write(refusalPath(issue, rec.login), `${JSON.stringify(rec, null, 2)}\n`);
}
