import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pickInstances, readInstances } from '../src/eval/instances';
import { CloneCache, defaultCacheDir } from '../src/eval/repos';
import { checkInstance, findMirrors, silentLog, type Check } from '../src/eval/suite-check';

/**
 * npm run eval:check [-- --ids A,B] [--network] [--suite FILE]: checks eval/suite.jsonl against the
 * repositories (mirrors found by CREW_EVAL_MIRRORS or a `.mirror` folder above the project; GitHub
 * with --network). Exit 0 when every instance checked held and at least one was checked.
 */
const { values } = parseArgs({
  options: { ids: { type: 'string', multiple: true }, network: { type: 'boolean' }, suite: { type: 'string' } },
});
const project = resolve(import.meta.dirname, '..');
const suite = resolve(values.suite ?? join(project, 'eval', 'suite.jsonl'));
const ids = (values.ids ?? []).flatMap((s) => s.split(',')).filter(Boolean);
const instances = pickInstances(await readInstances(suite), ids.length ? ids : undefined, undefined, suite);
const mirrors = findMirrors(project);
const work = join(tmpdir(), `crew-eval-check-${process.getuid?.() ?? 'user'}`, createHash('sha256').update(suite).digest('hex').slice(0, 12));
const cache = new CloneCache(defaultCacheDir(), process.env, mirrors);
console.log(`Checking ${instances.length} instances of ${suite} (mirrors: ${mirrors ?? 'none'}${values.network ? ', GitHub for the rest' : ''})`);
const checks: Check[] = [];
for (const inst of instances) {
  const started = Date.now();
  const check = await checkInstance(inst, {
    cache,
    mirrors,
    network: values.network === true,
    work,
    score: {
      log: silentLog((m) => console.log(`  ⚠ ${inst.instance_id}: ${m}`)),
      allowUnsandboxed: true,
      commandTimeoutSeconds: 600,
      tempDir: join(work, 'tmp'),
      unsandboxedOptIn: 'the check runs the suite without a sandbox where none starts',
    },
  }).catch((e: Error): Check => ({ id: inst.instance_id, kind: 'failed', problems: [e.message] }));
  checks.push(check);
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (check.kind === 'held') console.log(`✓ ${check.id} (${secs} s): FAIL_TO_PASS fails at base and passes at fix; PASS_TO_PASS passes at both`);
  else if (check.kind === 'skipped') console.log(`- ${check.id}: skipped: ${check.reason}`);
  else console.log(`✗ ${check.id} (${secs} s):\n${check.problems.map((p) => `    ${p}`).join('\n')}`);
  await rm(join(work, inst.instance_id), { recursive: true, force: true });
}
const count = (k: Check['kind']) => checks.filter((c) => c.kind === k).length;
console.log(`\n${count('held')} held, ${count('failed')} failed, ${count('skipped')} skipped.`);
process.exitCode = count('failed') || !count('held') ? 1 : 0;
