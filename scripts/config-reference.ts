/**
 * Regenerates what is derived from the config schema and the command registry:
 * schema/crew.schema.json, docs/configuration.md's configuration table and docs/commands.md's commands table. The tests
 * fail when any is out of date.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { configJsonSchema, configReference } from '../src/config/reference';
import { commandTable } from '../src/render/messages';
import { trajectoryJsonSchema } from '../src/domain/trajectory';

const root = join(import.meta.dirname, '..');
mkdirSync(join(root, 'schema'), { recursive: true });
writeFileSync(join(root, 'schema', 'crew.schema.json'), `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
writeFileSync(join(root, 'schema', 'trajectory.schema.json'), `${JSON.stringify(trajectoryJsonSchema(), null, 2)}\n`);
const regenerate = (file: string, marker: string, body: string) => {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  const re = new RegExp(`(<!-- ${marker}:start -->\\n)[\\s\\S]*?(\\n<!-- ${marker}:end -->)`);
  if (!re.test(text)) throw new Error(`${file} has no <!-- ${marker}:start --> … <!-- ${marker}:end --> block`);
  writeFileSync(
    path,
    text.replace(re, (_m, start: string, end: string) => `${start}${body}${end}`),
  );
};
regenerate('docs/configuration.md', 'config-reference', configReference());
regenerate('docs/commands.md', 'commands', commandTable().join('\n'));
console.log(
  'wrote schema/crew.schema.json, schema/trajectory.schema.json, the configuration table (docs/configuration.md) and the commands table (docs/commands.md)',
);
