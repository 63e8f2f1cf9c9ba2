/** The value at `path` inside `root`, for saying what a validation error found. */
export function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v: unknown = root;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** A value as a short quote for an error message. */
export function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? 'nothing' : s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
