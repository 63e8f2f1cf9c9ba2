/** The label that lets plain comments through the workflow while crew waits for an answer. */
export const WAITING_LABEL = 'crew: waiting';
