import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../support/scenario/run-scenario';

describe('loading a scenario file: a mistake names the file and the path', () => {
  let dir: string;
  beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'scenario-load-'))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const scenario = async (name: string, text: string) => {
    const file = join(dir, `${name}.yaml`);
    await writeFile(file, text);
    return file;
  };
  const base = 'name: s\nissue: { title: T, author: m }\ntimeline:\n  - { comment: /crew run, author: m }\n';

  it('a scripted reply of the wrong shape, before anything starts', async () => {
    const file = await scenario(
      'bad-reply',
      `${base}model:\n  entries:\n    - role: worker\n      replies:\n        - content:\n            - { type: tool_call, name: x, input: {} }\n`,
    );
    await expect(loadScenario(file)).rejects.toThrow(
      new RegExp(`^${file.replace(/[/.]/g, '\\$&')}: Invalid fake-anthropic script:\\n  model\\.entries\\.0\\.replies\\.0\\.content\\.0(\\.type)?: `),
    );
  });

  it('YAML that does not parse, with the line', async () => {
    const file = await scenario('bad-yaml', `${base}model:\n  entries: [\n`);
    await expect(loadScenario(file)).rejects.toThrow(/bad-yaml\.yaml: not valid YAML: .*line \d+/s);
  });

  it('a well-formed script loads', async () => {
    const file = await scenario('good', `${base}model:\n  entries:\n    - role: worker\n      replies:\n        - content: [{ type: text, text: hi }]\n`);
    expect((await loadScenario(file)).scenario.name).toBe('s');
  });
});
