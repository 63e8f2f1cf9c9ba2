import { refusalKey } from '../domain/refusals';
import type { StateSnapshot, StateTx } from '../ports';
import { parseJson } from './run-files';
import { RefusalSchema } from './schemas';

/** When crew last posted a refusal to a person on an issue: `issue-<N>/refusals/<login>.json` on crew/state. */
export interface RefusalRecord {
  login: string;
  lastCommentAt: string;
}

export const refusalsFolder = (issue: number) => `issue-${issue}/refusals/`;
const refusalPath = (issue: number, login: string) => `${refusalsFolder(issue)}${refusalKey(login)}.json`;

export function readRefusal(r: Pick<StateSnapshot, 'read' | 'list'>, issue: number, login: string): RefusalRecord | undefined {
  return parseJson<RefusalRecord>(r, refusalPath(issue, login), RefusalSchema);
}

export function writeRefusal(tx: StateTx, issue: number, rec: RefusalRecord): void {
  tx.write(refusalPath(issue, rec.login), `${JSON.stringify(rec, null, 2)}\n`);
}
