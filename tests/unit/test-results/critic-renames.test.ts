import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCritic, type CriticInput } from '../../../src/agents/critic';
import type { Log } from '../../../src/ports';
import { scriptedSubmissions } from '../crew/scripted-model';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'critic-renames-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const input = (): CriticInput => ({
  repoDir: dir,
  modelId: 'm',
  system: 's',
  plan: { summary: 'x', tasks: [], criteria: [] } as unknown as CriticInput['plan'],
  judge: [],
  commandResults: [],
  adversarial: [],
  taskSummaries: [],
  diffStat: '',
  guidance: '',
  commands: { policy: { allow: [], deny: [] }, timeoutMs: 1000, maxOutputBytes: 1000 } as unknown as CriticInput['commands'],
  maxTurns: 5,
  iteration: 1,
  limit: 3,
  lostTests: [{ criterion: 'c1', command: 'npm test', lost: ['a › old', 'a › other'], newPassing: ['a › new'] }],
});

const judged = (renames: unknown[]) => ({ evaluations: [], overall_reason: 'r', renames });

describe("the critic's renames (#32): a lost test is a rename only when both names are on crew's lists", () => {
  it('the lost tests and the new ones are in the first message', async () => {
    const { model, requests } = scriptedSubmissions('submit_judgment', [judged([])]);
    await runCritic(model, input(), log);
    const first = JSON.stringify(requests[0]!.messages[0]);
    expect(first).toContain('- a › old');
    expect(first).toContain('- a › new');
  });

  it('a name that is not on the lists, or a replacement used twice, is refused with the field named; the corrected answer stands', async () => {
    const { model, requests } = scriptedSubmissions('submit_judgment', [
      judged([{ criterion: 'c1', lost: 'a › old', replacement: 'a › invented' }]),
      judged([
        { criterion: 'c1', lost: 'a › old', replacement: 'a › new' },
        { criterion: 'c1', lost: 'a › other', replacement: 'a › new' },
      ]),
      judged([{ criterion: 'c1', lost: 'a › old', replacement: 'a › new' }]),
    ]);
    const out = await runCritic(model, input(), log);
    expect(JSON.stringify(requests[1]!.messages)).toContain('renames.0.replacement: \\"a › invented\\" is not among the new passing tests of c1');
    expect(JSON.stringify(requests[2]!.messages)).toContain('renames.1: each lost test and each new test can be named in one rename only');
    expect(out.renames).toEqual([{ criterion: 'c1', lost: 'a › old', replacement: 'a › new' }]);
  });
});

describe("the critic's tools", () => {
  it("are the read-only roles' (readOnlyTools), run_command and its answer, in that order", async () => {
    const { model, requests } = scriptedSubmissions('submit_judgment', [judged([])]);
    await runCritic(model, input(), log);
    expect(requests[0]!.tools.map((t) => t.name)).toEqual(['list_files', 'read_file', 'search', 'run_command', 'submit_judgment']);
  });
});
