import { lookAtCiWhenRunEnds } from './ci-status';
import { tidyUp } from './cleanup';
import type { StepContext } from './context';

/**
 * What follows every run's ending, in one order, whatever ended it (the critic's PASS in finish, its
 * tasks failing in advance, `/crew abort`): first the look at CI on its pull requests, then cleanup.
 * The look can merge a pull request (the merge gate reads the checks it found) or start fix_ci's
 * follow-up on its branch; cleanup run after it sees that: a pull request merged just now loses its
 * branches in this job, and a follow-up just started keeps its pull request's branches.
 */
export async function afterRunEnded(ctx: StepContext, issue: number, run: number): Promise<void> {
  // CI that completed while the run worked sent its event once, and found the run busy: crew looks now.
  await lookAtCiWhenRunEnds(ctx, issue, run);
  // Any run that ended for good since crew last looked (this one included, when the look merged it).
  await tidyUp(ctx, issue);
}
