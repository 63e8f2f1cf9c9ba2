/**
 * Regenerates what is derived from the config schema: schema/crew.schema.json and the
 * README's configuration table. The tests fail when either is out of date.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { configJsonSchema, configReference } from '../src/config/reference';

const root = join(import.meta.dirname, '..');
mkdirSync(join(root, 'schema'), { recursive: true });
writeFileSync(join(root, 'schema', 'crew.schema.json'), `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
const readme = join(root, 'README.md');
const text = readFileSync(readme, 'utf8');
const updated = text.replace(/(<!-- config-reference:start -->\n)[\s\S]*?(\n<!-- config-reference:end -->)/, `$1${configReference()}$2`);
writeFileSync(readme, updated);
console.log('wrote schema/crew.schema.json and the README configuration table');
