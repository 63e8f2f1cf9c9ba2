/**
 * Regenerates what is derived from the config schema and the command registry:
 * schema/crew.schema.json, the README's configuration table and its commands table. The tests
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
const readme = join(root, 'README.md');
const text = readFileSync(readme, 'utf8');
const updated = text
  .replace(/(<!-- config-reference:start -->\n)[\s\S]*?(\n<!-- config-reference:end -->)/, `$1${configReference()}$2`)
  .replace(/(<!-- commands:start -->\n)[\s\S]*?(\n<!-- commands:end -->)/, `$1${commandTable().join('\n')}$2`);
writeFileSync(readme, updated);
console.log('wrote schema/crew.schema.json, schema/trajectory.schema.json and the README configuration and commands tables');
