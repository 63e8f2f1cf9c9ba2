import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ConfigError, parseYamlMapping, validateConfig } from '../config/schema';
import { UsageError } from './workspace';

/**
 * `crew run --config task.yaml`: the task and its done criteria, plus any key of
 * `.github/crew.yml`, which then applies to this run only. One schema for every key:
 * the crew.yml keys are validated by the same schema as on GitHub.
 */

const TaskKeys = z.strictObject({
  task: z.string().trim().min(1, 'say what crew should do'),
  criteria: z.array(z.string().trim().min(1)).default([]),
});

export interface TaskFile {
  task: string;
  criteria: string[];
  /** The crew.yml keys the file sets. */
  overrides: Record<string, unknown>;
}

export async function readTaskFile(file: string): Promise<TaskFile> {
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(`--config ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}.`);
  });
  const raw = parseYamlMapping(text, file);
  const { task, criteria, ...overrides } = raw;
  const parsed = TaskKeys.safeParse({ task, criteria });
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (i) => `\`${i.path.join('.') || '(top level)'}\`: ${i.message}${i.path[0] === 'task' && task === undefined ? ' (the file needs a `task:` key)' : ''}`,
      ),
      file,
    );
  }
  validateConfig(overrides, file);
  return { ...parsed.data, overrides };
}
