/** crew's version, stamped into the reports it writes (claude-crew's `generated_by`). Keep in step with package.json. */
export const CREW_VERSION = '0.1.0';
