import type { Scenario } from './schema';

/**
 * A scenario built in code: a DAG of tasks whose workers take a scripted time (model
 * time, scaled by the scenario's time scale) and then write one file each. For the
 * scheduling benchmark and the request-count figures.
 */
export interface DagTask {
  id: string;
  deps: string[];
  /** Model time the worker's only turn takes, in ms. */
  ms: number;
}

const DETAILS = Array.from({ length: 20 }, (_, i) => `- report line ${i + 1}`).join('\n');

export function dagScenario(name: string, tasks: DagTask[], opts: { maxParallel?: number; timeScale?: number } = {}): Scenario {
  const crewId = new Map(tasks.map((t, i) => [t.id, `t${i + 1}`]));
  return {
    name,
    description: `${tasks.length} tasks with scripted durations`,
    repo: { owner: 'acme', name: 'widgets', default_branch: 'main', files: { 'README.md': '# widgets\n' }, branches: {}, settings: {} },
    config: `max_parallel: ${opts.maxParallel ?? 10}\nmax_tasks: 20\n`,
    users: [{ login: 'maintainer', permission: 'write', type: 'User' }],
    secrets: { ANTHROPIC_API_KEY: 'sk-ant-bench-key-000000' },
    issue: { title: 'Write the notes', body: 'Write every note.', author: 'maintainer', existing_comments: 0 },
    timeline: [{ comment: '/crew run', author: 'maintainer' }, { wait: 'idle' }],
    faults: { github: [], anthropic: [] },
    kill: [],
    time_scale: opts.timeScale ?? 0.01,
    model: {
      entries: [
        { role: 'intake', replies: [{ content: [{ type: 'tool_use', name: 'submit_intake', input: { task: 'Write the notes.', criteria: [{ text: 'every note exists', kind: 'semantic' }], questions: [], single_task: false } }] }] },
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
                    tasks: tasks.map((t) => ({ id: t.id, title: `Note ${t.id}`, description: `Write notes/${t.id}.md.`, persona: 'writer', model: 'haiku', depends_on: t.deps, files: [`notes/${t.id}.md`], criteria: [`notes/${t.id}.md exists`] })),
                  },
                },
              ],
            },
          ],
        },
        ...tasks.map((t) => ({
          role: 'worker',
          task: crewId.get(t.id)!,
          replies: [
            {
              delay_ms: t.ms,
              content: [
                { type: 'tool_use', name: 'write_file', input: { path: `notes/${t.id}.md`, content: `# ${t.id}\n` } },
                { type: 'tool_use', name: 'report_result', input: { status: 'success', quality: 'GREEN', completeness: 100, summary: `Wrote notes/${t.id}.md.`, details: DETAILS } },
              ],
            },
          ],
        })),
      ],
    },
  } as Scenario;
}
