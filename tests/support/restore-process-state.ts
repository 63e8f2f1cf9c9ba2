import { afterAll } from 'vitest';
import { restoreEnv } from './process-env';

/**
 * A setup file for the test files that share a worker process (vitest.config.ts): vitest runs it
 * before each file, so whatever a file does to the environment, the working directory or the exit
 * code is undone before the next file starts, as if it had had a process of its own.
 */
const realEnv = process.env;
const env = { ...process.env };
const cwd = process.cwd();
const exitCode = process.exitCode;

afterAll(() => {
  // A file that replaced process.env with a plain object cut it from the real environment: the real one comes back.
  if (process.env !== realEnv) process.env = realEnv;
  restoreEnv(env);
  if (process.cwd() !== cwd) process.chdir(cwd);
  process.exitCode = exitCode;
});
