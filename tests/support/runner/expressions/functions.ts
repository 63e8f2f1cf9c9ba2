import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { foldCase, isPrimitive, kindOf, looseEquals, toStr } from './coerce';
import type { ExprValue, StatusFunctions } from './types';

export interface CallSite {
  /** Throws an ExpressionError pointing at the call. */
  fail(detail: string): never;
  status: StatusFunctions | undefined;
  /** The job's workspace (`github.workspace`), where hashFiles looks. */
  workspace: string | undefined;
}

export interface FunctionDef {
  name: string;
  minArgs: number;
  maxArgs: number;
  oddArgs?: boolean;
  call(args: ExprValue[], site: CallSite): ExprValue;
}

export const STATUS_FUNCTIONS = new Set(['success', 'failure', 'cancelled', 'always']);

function statusFunction(name: 'success' | 'failure' | 'cancelled' | 'always'): FunctionDef {
  return {
    name,
    minArgs: 0,
    maxArgs: 0,
    call(_args, site) {
      const status = site.status;
      if (status === undefined) return site.fail(`Status function '${name}()' is only available in if: conditions`);
      if (name === 'always') return status.always?.() ?? true;
      return status[name]();
    },
  };
}

function format(template: string, args: ExprValue[], site: CallSite): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i] as string;
    if (c === '{' && template[i + 1] === '{') {
      out += '{';
      i += 2;
    } else if (c === '}' && template[i + 1] === '}') {
      out += '}';
      i += 2;
    } else if (c === '{') {
      let j = i + 1;
      while (j < template.length && /[0-9]/.test(template[j] as string)) j++;
      if (j === i + 1 || template[j] !== '}') site.fail(`Invalid format string: '${template}'`);
      const index = Number(template.slice(i + 1, j));
      if (index >= args.length) {
        site.fail(`Format string references {${index}} but only ${args.length} argument(s) provided`);
      }
      out += toStr(args[index]);
      i = j + 1;
    } else if (c === '}') {
      site.fail(`Invalid format string: '${template}'`);
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const DEFINITIONS: FunctionDef[] = [
  {
    name: 'contains',
    minArgs: 2,
    maxArgs: 2,
    call([search, item]) {
      if (Array.isArray(search)) return search.some((element) => looseEquals(element, item));
      if (!isPrimitive(search)) return false;
      return foldCase(toStr(search)).includes(foldCase(toStr(item)));
    },
  },
  {
    name: 'startsWith',
    minArgs: 2,
    maxArgs: 2,
    call([text, prefix]) {
      if (!isPrimitive(text) || !isPrimitive(prefix)) return false;
      return foldCase(toStr(text)).startsWith(foldCase(toStr(prefix)));
    },
  },
  {
    name: 'endsWith',
    minArgs: 2,
    maxArgs: 2,
    call([text, suffix]) {
      if (!isPrimitive(text) || !isPrimitive(suffix)) return false;
      return foldCase(toStr(text)).endsWith(foldCase(toStr(suffix)));
    },
  },
  {
    name: 'format',
    minArgs: 1,
    maxArgs: Number.POSITIVE_INFINITY,
    call([template, ...args], site) {
      return format(toStr(template), args, site);
    },
  },
  {
    name: 'join',
    minArgs: 1,
    maxArgs: 2,
    call(args) {
      const [items, separator] = args;
      const sep = args.length > 1 && isPrimitive(separator) ? toStr(separator) : ',';
      if (Array.isArray(items)) return items.map((item) => toStr(item)).join(sep);
      return isPrimitive(items) ? toStr(items) : '';
    },
  },
  {
    name: 'toJSON',
    minArgs: 1,
    maxArgs: 1,
    call([value]) {
      return JSON.stringify(value ?? null, null, 2);
    },
  },
  {
    name: 'fromJSON',
    minArgs: 1,
    maxArgs: 1,
    call([value], site) {
      const text = toStr(value);
      if (text.trim() === '') site.fail(`Error from function 'fromJSON': empty input`);
      try {
        return JSON.parse(text) as ExprValue;
      } catch (error) {
        return site.fail(`Error from function 'fromJSON': ${(error as Error).message} (input: ${JSON.stringify(text)})`);
      }
    },
  },
  {
    name: 'hashFiles',
    minArgs: 1,
    maxArgs: Number.POSITIVE_INFINITY,
    // actions/runner src/Misc/expressionFunc/hashFiles: the SHA-256 of each matched file under the workspace,
    // in order, hashed together; '' when nothing matches. Here only literal paths (no glob characters).
    call(args, site) {
      if (!site.workspace) return site.fail('hashFiles() needs a job workspace');
      const whole = createHash('sha256');
      let matched = 0;
      for (const pattern of args.map(toStr)) {
        if (/[*?[\]{}!]/.test(pattern)) return site.fail(`hashFiles('${pattern}'): the offline runner takes literal paths only`);
        const file = resolve(site.workspace, pattern);
        if (!file.startsWith(`${site.workspace}/`) || !existsSync(file) || !statSync(file).isFile()) continue;
        whole.update(createHash('sha256').update(readFileSync(file)).digest());
        matched++;
      }
      return matched ? whole.digest('hex') : '';
    },
  },
  {
    name: 'case',
    minArgs: 3,
    maxArgs: Number.POSITIVE_INFINITY,
    oddArgs: true,
    call(args, site) {
      for (let i = 0; i + 1 < args.length; i += 2) {
        const predicate = args[i];
        if (kindOf(predicate) !== 'boolean') site.fail('case predicate must evaluate to a boolean value');
        if (predicate === true) return args[i + 1] as ExprValue;
      }
      return args[args.length - 1] as ExprValue;
    },
  },
  statusFunction('success'),
  statusFunction('failure'),
  statusFunction('cancelled'),
  statusFunction('always'),
];

const BY_NAME = new Map(DEFINITIONS.map((def) => [def.name.toLowerCase(), def]));

/** Function names are case-insensitive (`toJson`, `FROMJSON`). */
export function lookupFunction(name: string): FunctionDef | undefined {
  return BY_NAME.get(name.toLowerCase());
}
