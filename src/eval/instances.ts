import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * SWE-bench's instance format (one JSON object a line), with the extra fields the multilingual
 * sets and crew's own suite add: `setup`, `test_cmd`, `fix_commit`, `test_files`. Extra fields are
 * allowed and ignored. SWE-bench writes FAIL_TO_PASS/PASS_TO_PASS as JSON text inside the JSON;
 * both that and a plain list are read.
 */

const testList = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}, z.array(z.string()));

const commands = z.preprocess((v) => (typeof v === 'string' ? (v.trim() ? [v] : []) : v), z.array(z.string().min(1)));

export const InstanceSchema = z.looseObject({
  instance_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/, 'letters, digits, dot, dash and underscore only (it names files and folders)'),
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'owner/name, as on GitHub'),
  base_commit: z.string().regex(/^[0-9a-f]{40}$/, 'a full 40-character commit id'),
  problem_statement: z.string().trim().min(1, 'the task crew is given: it must not be empty'),
  fix_commit: z
    .string()
    .regex(/^[0-9a-f]{40}$/, 'a full 40-character commit id')
    .optional(),
  setup: commands.optional(),
  test_cmd: z.string().trim().min(1).optional(),
  test_files: z.array(z.string().min(1)).optional(),
  test_patch: z.string().optional(),
  FAIL_TO_PASS: testList.default([]),
  PASS_TO_PASS: testList.default([]),
});
export type Instance = z.infer<typeof InstanceSchema>;

export class InstancesError extends Error {}

/** Every instance of the file, in order; a bad line is named by line number and field, and nothing runs. */
export async function readInstances(file: string): Promise<Instance[]> {
  const text = await readFile(file, 'utf8').catch((e: Error) => {
    throw new InstancesError(`cannot read ${file}: ${e.message}. Pass a SWE-bench instances file (JSON Lines).`);
  });
  return parseInstances(text, file);
}

export function parseInstances(text: string, file: string): Instance[] {
  const out: Instance[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${file}:${i + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      problems.push(`${where}: not JSON (${(e as Error).message})`);
      return;
    }
    const parsed = InstanceSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${where}: ${issue.path.join('.') || '(the line)'}: ${issue.message}`);
      return;
    }
    const inst = parsed.data;
    const before = seen.get(inst.instance_id);
    if (before !== undefined) problems.push(`${where}: instance_id ${inst.instance_id} is also on line ${before}; each instance needs its own id`);
    seen.set(inst.instance_id, i + 1);
    if (inst.test_files?.length && !inst.fix_commit) problems.push(`${where}: test_files needs fix_commit (the commit the test files are taken from)`);
    out.push(inst);
  });
  if (problems.length) throw new InstancesError(`${problems.slice(0, 20).join('\n')}${problems.length > 20 ? `\n… and ${problems.length - 20} more` : ''}`);
  if (!out.length) throw new InstancesError(`${file} holds no instances: one JSON object a line, as SWE-bench's instance files.`);
  return out;
}

/** `--ids` then `--limit`; an id that is not in the file is an error, not a silent skip. */
export function pickInstances(all: Instance[], ids: string[] | undefined, limit: number | undefined, file: string): Instance[] {
  let picked = all;
  if (ids?.length) {
    const known = new Set(all.map((i) => i.instance_id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length) throw new InstancesError(`--ids: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in ${file}.`);
    const wanted = new Set(ids);
    picked = all.filter((i) => wanted.has(i.instance_id));
  }
  return limit === undefined ? picked : picked.slice(0, limit);
}
