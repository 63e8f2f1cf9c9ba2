import { parse } from 'yaml';

/** crew's own workflow file parsed, or why it cannot be read (not on the default branch, not YAML). */
export function readWorkflowDoc(workflowText: string | undefined, file: string): { doc: unknown } | { unreadable: string } {
  if (workflowText === undefined) return { unreadable: `${file} is not on the default branch` };
  try {
    return { doc: parse(workflowText) };
  } catch (e) {
    return { unreadable: `${file} is not valid YAML (${(e as Error).message.split('\n')[0]})` };
  }
}
