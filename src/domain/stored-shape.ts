import { z } from 'zod';

/**
 * Building blocks of the shapes crew keeps on the state branch (run.json, the task files,
 * plan.json). Each shape is a zod schema first, and its TypeScript type is derived from it,
 * so the shape is written once: the checks on read, the defaults for fields older runs lack,
 * and the type the code sees all come from the same declaration.
 *
 * Objects are loose, so a field a newer crew added is kept (and written back), not refused.
 * zod types a loose object with an index signature (`[k: string]: unknown`), which would let
 * a misspelt field or an excess property through the compiler; `Known` removes it again.
 */

/** A loose object schema's type without the index signature looseness adds (records such as `met` keep theirs). */
export type Known<T> = T extends readonly (infer U)[]
  ? Known<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Known<T[K]> }
    : T;

/** The type a stored shape's schema reads into, defaults filled in. */
export type Stored<S extends z.ZodType> = Known<z.output<S>>;

export const count = z.int().nonnegative();
export const text = z.string();
export const nullableText = text.nullable();
/** Ids crew assigns (t1, t2, …): they end up in branch names and file paths, so nothing else is accepted. */
export const taskId = z.string().regex(/^t[1-9][0-9]{0,2}$/, { message: 'expected a crew task id such as t1' });
/** A work leg: a task's id, or one of its parallel attempts' (`t1-a2`, #50). */
export const workLeg = z.string().regex(/^t[1-9][0-9]{0,2}(-a[2-9])?$/, { message: 'expected a crew task id such as t1 or t1-a2' });
export const crewBranch = z.string().regex(/^crew\/[A-Za-z0-9._/-]+$/, { message: 'expected a crew/ branch name' });
