import { z } from 'zod';
import { ConfigSchema } from './schema';

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
};

function typeOf(s: JsonSchema): string {
  if (s.enum) return s.enum.map((v) => `\`${String(v)}\``).join(' \\| ');
  if (s.type === 'array') return `list of ${typeOf(s.items ?? {})}`;
  if (s.type === 'integer' && s.minimum !== undefined && s.maximum !== undefined) return `integer ${s.minimum}–${s.maximum}`;
  return Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
}

/** The JSON Schema editors use to check `.github/crew.yml`, generated from the zod schema. */
export function configJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://github.com/your-org/crew/blob/v1/schema/crew.schema.json',
    title: 'crew configuration (.github/crew.yml)',
    ...(z.toJSONSchema(ConfigSchema, { io: 'input' }) as Record<string, unknown>),
  };
}

/** The README's configuration table, generated from the one schema so the two cannot drift. */
export function configReference(): string {
  const schema = z.toJSONSchema(ConfigSchema, { io: 'input' }) as JsonSchema;
  const rows: string[] = ['| Key | Type | Default | What it does |', '|---|---|---|---|'];
  const walk = (props: Record<string, JsonSchema>, prefix: string) => {
    for (const [key, s] of Object.entries(props)) {
      const name = `${prefix}${key}`;
      if (s.type === 'object' && s.properties) {
        rows.push(`| \`${name}\` | mapping | | ${s.description ?? ''} |`);
        walk(s.properties, `${name}.`);
        continue;
      }
      // A key with a short form (`transcripts: none`) and a mapping: both named, then the mapping's keys.
      const mapping = s.anyOf?.find((a) => a.type === 'object' && a.properties);
      if (mapping) {
        const short = s.anyOf!.filter((a) => a !== mapping).map(typeOf);
        rows.push(`| \`${name}\` | ${[...short, 'mapping'].join(' or ')} | | ${s.description ?? ''} |`);
        walk(mapping.properties!, `${name}.`);
        continue;
      }
      const def = s.default === undefined ? '' : `\`${JSON.stringify(s.default)}\``;
      rows.push(`| \`${name}\` | ${typeOf(s)} | ${def} | ${s.description ?? ''} |`);
    }
  };
  walk(schema.properties ?? {}, '');
  return rows.join('\n');
}
