/**
 * Test results as data (#32), the public face of this folder: parse the reports a run left
 * (`readReports`), compare a head with a base by test identity (`compare`, SWE-bench's
 * FAIL_TO_PASS / PASS_TO_PASS in `failToPass`/`passToPass`), and the critic's accounting of a
 * criterion (`account`). Pure: the reports are read by sandbox/test-reports.
 */
export { describeTest, testKey, testOfKey, RUNNERS, type Runner, type TestId, type TestOutcome, type TestResult, type TestRun } from './types';
export { readReports, MAX_REPORT_BYTES, MAX_REPORTS_BYTES, MAX_REPORT_FILES, type ReportFile } from './read';
export { compare, changeKind, failToPass, passToPass, lostTests, failingKeys, type Before, type ChangeKind, type TestChange } from './compare';
export {
  account,
  summaryLine,
  countsText,
  describeLost,
  testFindings,
  lineInDiff,
  LIST_LIMIT,
  type TestAccounting,
  type TestCounts,
  type LostTest,
} from './accounting';
export { BaseRunSchema, TestRunSchema, type BaseRun } from './base-run';
