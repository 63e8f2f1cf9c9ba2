import { describe, expect, it } from 'vitest';
import { CrewError } from '../../../src/steps/context';
import { ownCode } from '../../../src/steps/own-code';

describe('ownCode: crew code imported on first use', () => {
  it('passes the module through', async () => {
    expect(await ownCode('the abort command', Promise.resolve({ abort: 1 }))).toEqual({ abort: 1 });
  });

  it('a chunk that fails to load fails as a CrewError naming what was loading and what to do', async () => {
    const failing = ownCode('the abort command', Promise.reject(new Error("Cannot find module '/action/dist/84.index.js'")));
    await expect(failing).rejects.toBeInstanceOf(CrewError);
    await expect(failing).rejects.toThrow(/could not load its own code for the abort command: Cannot find module/);
    await expect(failing).rejects.toMatchObject({ next: expect.stringMatching(/Re-run the failed job.*release tag/) });
  });
});
