import { afterAll } from 'vitest';

/**
 * A setup file for the test files that share a worker process (vitest.config.ts): vitest runs it
 * before each file, so whatever a file does to the environment, the working directory or the exit
 * code is undone before the next file starts, as if it had had a process of its own.
 */
const env = { ...process.env };
const cwd = process.cwd();
const exitCode = process.exitCode;

afterAll(() => {
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  Object.assign(process.env, env);
  if (process.cwd() !== cwd) process.chdir(cwd);
  process.exitCode = exitCode;
});
