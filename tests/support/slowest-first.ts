import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { DURATIONS_FILE, expectedSeconds, readDurations } from './test-durations.js';

/**
 * Test files in the order that finishes the suite soonest on a few workers: the longest first, the
 * short unit files last to fill the gaps. Vitest's own order needs the durations of an earlier run
 * on this machine, which a clean clone (CI) does not have, and falls back to file size: a 35-line
 * scenario test that waits 90 s then starts last and the suite ends with one worker busy. So the
 * seconds each file took in a whole run are kept in tests/durations.json (`npm run test:durations`
 * rewrites it); a file not listed there counts as one scenario if it sits in tests/e2e.
 */
export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const durations = readDurations(join(root, DURATIONS_FILE));
    const key = (f: TestSpecification) => relative(root, f.moduleId).split('\\').join('/');
    // Ties (the many short unit files) keep a fixed order by name, so two runs schedule alike.
    return [...files].sort((a, b) => expectedSeconds(key(b), durations) - expectedSeconds(key(a), durations) || key(a).localeCompare(key(b)));
  }
}
