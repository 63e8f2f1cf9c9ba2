import { describe, expect, it } from 'vitest';

describe('the Node the tests run on', () => {
  it('is Node 24 or newer, the runtime action.yml declares (npm scripts put node@24 from devDependencies first on PATH)', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });
});
