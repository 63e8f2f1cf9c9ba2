/**
 * Puts the environment back as `saved` holds it, in place. Never a new object for process.env: a plain one
 * there cuts the link to the process's real environment, so later writes (vi.stubEnv, TMPDIR for
 * os.tmpdir(), what child processes inherit) stop taking effect for every file sharing the process.
 */
export function restoreEnv(saved: NodeJS.ProcessEnv): void {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
}
