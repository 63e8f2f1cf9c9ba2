import type { ScriptedReply } from '../anthropic/index';
import type { Scenario } from './schema';

/**
 * A scenario built in code: a DAG of tasks whose workers take a scripted time (model
 * time, scaled by the scenario's time scale). Each worker reads the shared spec, writes
 * its note, and reports. For the benchmark, which plays the same tasks through crew and
 * through its baselines, and for the scheduling and request-count tests.
 */
export interface DagTask {
  id: string;
  deps: string[];
  /** Model time the task's work takes (the turn that writes its note), in ms. */
  ms: number;
}

export interface ModelLatency {
  perRequestMs: number;
  perOutputTokenMs: number;
}

/** The file every task reads first: about 2,000 tokens, so prompt caching has something to serve. */
export const SPEC_PATH = 'docs/spec.md';
export const SPEC = `# The notes spec\n\n${Array.from({ length: 80 }, (_, i) => `${i + 1}. Every note states its subject, its owner and its review date, in plain words, one line each (rule ${i + 1}).`).join('\n')}\n`;

const DETAILS = Array.from({ length: 20 }, (_, i) => `- report line ${i + 1}`).join('\n');

/** The note a task writes, and the file it lives in. */
export const notePath = (id: string) => `notes/${id}.md`;
export const noteContent = (id: string) => `# ${id}\n\nSubject: ${id}. Owner: the docs team. Review: next quarter.\n`;

/** The scripted worker of one task: read the spec, write the note (this turn carries the task's model time), report. */
export function taskReplies(t: DagTask): ScriptedReply[] {
  return [
    { content: [{ type: 'tool_use', name: 'read_file', input: { path: SPEC_PATH } }] },
    { delay_ms: t.ms, content: [{ type: 'tool_use', name: 'write_file', input: { path: notePath(t.id), content: noteContent(t.id) } }] },
    {
      content: [
        {
          type: 'tool_use',
          name: 'report_result',
          input: { status: 'success', quality: 'GREEN', completeness: 100, summary: `Wrote ${notePath(t.id)}.`, details: DETAILS },
        },
      ],
    },
  ];
}

/** crew's ids for the tasks: t1, t2, … in plan order. */
export const crewIds = (tasks: DagTask[]) => new Map(tasks.map((t, i) => [t.id, `t${i + 1}`]));

export function dagScenario(
  name: string,
  tasks: DagTask[],
  opts: {
    maxParallel?: number;
    timeScale?: number;
    latency?: ModelLatency;
    profile?: Scenario['profile'];
    /** More of `.github/crew.yml`. */
    config?: string;
  } = {},
): Scenario {
  const crewId = crewIds(tasks);
  return {
    name,
    description: `${tasks.length} tasks with scripted durations`,
    repo: { owner: 'acme', name: 'widgets', default_branch: 'main', files: { 'README.md': '# widgets\n', [SPEC_PATH]: SPEC }, branches: {}, settings: {} },
    provider: 'anthropic',
    config: `max_parallel: ${opts.maxParallel ?? 10}\nmax_tasks: 50\n${opts.config ?? ''}`,
    users: [{ login: 'maintainer', permission: 'write', type: 'User' }],
    secrets: { ANTHROPIC_API_KEY: 'sk-ant-bench-key-000000' },
    attachments: {},
    issue: { title: 'Write the notes', body: 'Write every note.', author: 'maintainer', existing_comments: 0 },
    timeline: [{ comment: '/crew run', author: 'maintainer' }, { wait: 'idle' }],
    faults: { github: [], anthropic: [], fallback: [] },
    kill: [],
    time_scale: opts.timeScale ?? 0.01,
    job_time_scale: 1,
    profile: opts.profile ?? 'loopback',
    ...(opts.latency ? { model_latency: { per_request_ms: opts.latency.perRequestMs, per_output_token_ms: opts.latency.perOutputTokenMs } } : {}),
    model: {
      entries: [
        // One task skips the decomposer, as crew does for a small request.
        {
          role: 'intake',
          replies: [
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'submit_intake',
                  input: {
                    task: 'Write the notes.',
                    criteria: [{ text: 'every note exists', kind: 'semantic' }],
                    questions: [],
                    single_task: tasks.length === 1,
                    ...(tasks.length === 1 ? { persona: 'writer', model: 'haiku' } : {}),
                  },
                },
              ],
            },
          ],
        },
        { role: 'plan_reviewer', replies: [{ content: [{ type: 'tool_use', name: 'submit_review', input: { verdict: 'PASS' } }] }] },
        {
          role: 'decomposer',
          replies: [
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'submit_plan',
                  input: {
                    summary: 'Notes.',
                    tasks: tasks.map((t) => ({
                      id: t.id,
                      title: `Note ${t.id}`,
                      description: `Write ${notePath(t.id)} following ${SPEC_PATH}.`,
                      persona: 'writer',
                      model: 'haiku',
                      depends_on: t.deps,
                      files: [notePath(t.id)],
                      criteria: [`${notePath(t.id)} exists`],
                    })),
                  },
                },
              ],
            },
          ],
        },
        ...tasks.map((t) => ({ role: 'worker', task: crewId.get(t.id)!, replies: taskReplies(t) })),
      ],
    },
  } as Scenario;
}
