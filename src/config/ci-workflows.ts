import { readWorkflowDoc } from './workflow-doc';

/** The CI workflows crew's workflow names under `on.workflow_run.workflows`, or why they cannot be read. */
export type CiWorkflowsRead = { names: string[] } | { unreadable: string };

/**
 * The workflows `fix_ci` is named for: GitHub sends crew a `workflow_run` event only for the runs of
 * the workflows its own workflow file lists there (docs: "Events that trigger workflows"), so when
 * crew looks at a head's CI itself (a run that ended while CI had already failed), it looks at the
 * same ones. None listed (or no `workflow_run` trigger) is an empty list, not an error.
 */
export function readCiWorkflows(workflowText: string | undefined, file: string): CiWorkflowsRead {
  const read = readWorkflowDoc(workflowText, file);
  if ('unreadable' in read) return read;
  const doc = read.doc;
  // YAML 1.1 readers take a bare `on:` key as `true`; the yaml package reads it as the string "on".
  const on = (doc as { on?: unknown; true?: unknown } | null)?.on ?? (doc as { true?: unknown } | null)?.true;
  if (!on || typeof on !== 'object' || Array.isArray(on)) return { names: [] };
  const trigger = (on as Record<string, unknown>).workflow_run;
  if (!trigger || typeof trigger !== 'object') return { names: [] };
  const names = (trigger as { workflows?: unknown }).workflows;
  if (names === undefined) return { names: [] };
  const list = typeof names === 'string' ? [names] : names;
  if (!Array.isArray(list) || !list.every((n) => typeof n === 'string'))
    return { unreadable: `on.workflow_run.workflows in ${file} is ${JSON.stringify(names)}, not a list of workflow names` };
  return { names: list };
}
