import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../src/config/schema';
import { isProtectedPath } from '../../../src/domain/glob';
import { InputError, readSettings } from '../../../src/settings';

const problems = (text: string) => {
  try {
    parseConfig(text);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe('.github/crew.yml', () => {
  it('gives every key a default, so a missing or empty file is valid', () => {
    const c = parseConfig(undefined);
    expect(c).toMatchObject({ default_model: 'sonnet', max_parallel: 10, worker_max_turns: 100, models: { sonnet: 'claude-sonnet-5-5' } });
    expect(parseConfig('')).toEqual(c);
    expect(parseConfig('# only a comment\n')).toEqual(c);
  });

  it('protects .github, actions, and the files that change how git and npm treat the rest, by default', () => {
    const globs = parseConfig(undefined).protected_paths;
    expect(globs).toEqual(['.github/**', '**/action.yml', '**/action.yaml', '**/.gitattributes', '.gitmodules', '**/.npmrc']);
    const protects = [
      '.github/workflows/ci.yml',
      '.github/crew.yml',
      '.github/crew/templates/worker_coder.md',
      '.github/dependabot.yml',
      '.github/CODEOWNERS',
      '.github',
      'action.yml',
      'action.yaml',
      'actions/deploy/action.yml',
      '.gitattributes',
      'test/.gitattributes',
      'a/b/.gitattributes',
      '.gitmodules',
      '.npmrc',
      'packages/x/.npmrc',
    ];
    for (const p of protects) expect(isProtectedPath(globs, p), p).toBe(true);
    for (const p of ['src/.github.js', 'x.gitattributes', 'src/x.npmrc', 'myaction.yml', 'docs/action.yml.md', 'README.md', 'package.json'])
      expect(isProtectedPath(globs, p), p).toBe(false);
  });

  it('reads valid values', () => {
    expect(parseConfig('max_parallel: 3\nmodels:\n  opus: claude-opus-5\n')).toMatchObject({
      max_parallel: 3,
      models: { opus: 'claude-opus-5', haiku: 'claude-haiku-5-5' },
    });
  });

  it('escalation limits per target: the ADR’s defaults, any of them set alone, bounded', () => {
    expect(parseConfig(undefined).escalation_limits).toEqual({ user: 10, planner: 3, advisor: 5 });
    expect(parseConfig('escalation_limits:\n  advisor: 1\n').escalation_limits).toEqual({ user: 10, planner: 3, advisor: 1 });
    expect(problems('escalation_limits:\n  planner: -1\n')[0]).toMatch(/^`escalation_limits.planner`: .*>=0.* \(got -1\)$/);
    expect(problems('escalation_limits:\n  advisor: 1.5\n')[0]).toMatch(/^`escalation_limits.advisor`: .* \(got 1.5\)$/);
    expect(problems('escalation_limits:\n  critic: 2\n')).toEqual(['unknown key `escalation_limits.critic`: remove it or check the spelling']);
  });

  it('names the key, the bad value and the expected form', () => {
    const [p] = problems('max_parallel: 0\n');
    expect(p).toMatch(/^`max_parallel`: .*>=1.* \(got 0\)$/);
    expect(problems('default_model: gpt\n')[0]).toMatch(/^`default_model`: .*"haiku"\|"sonnet"\|"opus".* \(got "gpt"\)$/);
    expect(problems('models:\n  sonnet: 5\n')[0]).toMatch(/^`models.sonnet`: .*string.* \(got 5\)$/);
  });

  it('trigger_label and trigger_assignee must fit the workflow’s filter, and say why', () => {
    expect(parseConfig('trigger_label: "crew: run"\ntrigger_assignee: acme-crew\n')).toMatchObject({
      trigger_label: 'crew: run',
      trigger_assignee: 'acme-crew',
    });
    expect(problems('trigger_label: ai\n')).toEqual([
      expect.stringMatching(/^`trigger_label`: must start with `crew` .*the workflow lets only such labels start a job \(got "ai"\)$/),
    ]);
    expect(problems('trigger_label: "Crew: Waiting"\n')).toEqual([expect.stringMatching(/^`trigger_label`: cannot be `crew: waiting`/)]);
    expect(problems('trigger_assignee: alice\n')).toEqual([expect.stringMatching(/^`trigger_assignee`: must contain `crew`/)]);
  });

  it('repository budgets are unset and the rate per person is 20 by default; bad values name the key (#52)', () => {
    expect(parseConfig(undefined)).toMatchObject({ limits: { runs_per_person_per_day: 20, rate_exempt: [] } });
    expect(parseConfig(undefined).budgets).not.toHaveProperty('day');
    expect(parseConfig('budgets:\n  day: 1.5\n  month: 30\n').budgets).toMatchObject({ day: 1.5, month: 30, run: { cost_usd: 50 } });
    expect(problems('budgets:\n  day: 0\n')[0]).toMatch(/^`budgets.day`: .*>0.* \(got 0\)$/);
    expect(problems('budgets:\n  month: lots\n')[0]).toMatch(/^`budgets.month`: .*number.*$/);
    expect(problems('limits:\n  runs_per_person_per_day: 0\n')[0]).toMatch(/^`limits.runs_per_person_per_day`: .*>=1.* \(got 0\)$/);
    expect(problems('limits:\n  per_day: 3\n')).toEqual(['unknown key `limits.per_day`: remove it or check the spelling']);
  });

  it('fix_ci is off by default; fix_ci_attempts is 2 by default and bounded to 1..5, naming the key', () => {
    expect(parseConfig(undefined)).toMatchObject({ fix_ci: false, fix_ci_attempts: 2 });
    expect(parseConfig('fix_ci: true\nfix_ci_attempts: 5\n')).toMatchObject({ fix_ci: true, fix_ci_attempts: 5 });
    expect(problems('fix_ci_attempts: 0\n')[0]).toMatch(/^`fix_ci_attempts`: .*>=1.* \(got 0\)$/);
    expect(problems('fix_ci_attempts: 6\n')[0]).toMatch(/^`fix_ci_attempts`: .*<=5.* \(got 6\)$/);
    expect(problems('fix_ci: yes please\n')[0]).toMatch(/^`fix_ci`: .*boolean.*$/);
  });

  it('reports unknown keys instead of ignoring them', () => {
    expect(problems('max_paralel: 3\n')).toEqual(['unknown key `max_paralel`: remove it or check the spelling']);
    expect(problems('models:\n  gpt: x\n')).toEqual(['unknown key `models.gpt`: remove it or check the spelling']);
  });

  it('says where the YAML is broken', () => {
    expect(problems('max_parallel: [1,\n')[0]).toMatch(/not valid YAML at line \d+, column \d+/);
    expect(problems('- a\n- b\n')).toEqual(['the file must be a mapping of keys to values']);
  });
});

describe('fallback_provider', () => {
  it('is off unless set; set, the fallback takes its own provider’s default ids, and `fallback_models` overrides them per tier', () => {
    expect(parseConfig(undefined).fallback).toBeNull();
    expect(parseConfig('fallback_provider: bedrock\n')).toMatchObject({
      provider: 'anthropic',
      models: { sonnet: 'claude-sonnet-5-5' },
      fallback: {
        provider: 'bedrock',
        models: { haiku: 'us.anthropic.claude-haiku-5-5', sonnet: 'us.anthropic.claude-sonnet-5-5', opus: 'us.anthropic.claude-opus-5-5' },
      },
    });
    const eu = parseConfig('provider: vertex\nfallback_provider: bedrock\nfallback_models:\n  opus: eu.anthropic.claude-opus-5-5\n');
    expect(eu.models.opus).toBe('claude-opus-5-5');
    expect(eu.fallback!.models).toEqual({
      haiku: 'us.anthropic.claude-haiku-5-5',
      sonnet: 'us.anthropic.claude-sonnet-5-5',
      opus: 'eu.anthropic.claude-opus-5-5',
    });
  });

  it('refuses a fallback that is the primary, and fallback ids without a fallback, naming the keys', () => {
    expect(problems('provider: bedrock\nfallback_provider: bedrock\n')).toEqual([
      '`fallback_provider` is bedrock, the same as `provider`: a fallback must be another provider. Name one (anthropic, bedrock or vertex), or remove `fallback_provider`.',
    ]);
    expect(problems('fallback_models:\n  opus: x\n')).toEqual([
      '`fallback_models` is set, but `fallback_provider` is not: set `fallback_provider`, or remove `fallback_models`.',
    ]);
    expect(problems('fallback_provider: azure\n')[0]).toMatch(/^`fallback_provider`: .*"anthropic"\|"bedrock"\|"vertex".* \(got "azure"\)$/);
  });

  it('the action’s inputs replace the file’s keys, and a clash they cause is named as theirs', () => {
    const file = 'provider: anthropic\nfallback_provider: vertex\n';
    expect(parseConfig(file, undefined, { fallbackProvider: 'bedrock' }).fallback!.provider).toBe('bedrock');
    expect(() => parseConfig(file, undefined, { provider: 'vertex' })).toThrow(
      /`fallback_provider` is vertex, the same as the action's `provider` input: a fallback must be another provider/,
    );
  });
});

describe('the action’s inputs', () => {
  const inputs = (values: Record<string, string>) => (name: string) => values[name] ?? '';
  const base = { step: 'route', github_token: 'ghs_x' };
  it('reads `provider` and `fallback_provider`, and names a bad value with what it may be', () => {
    expect(readSettings(inputs({ ...base, provider: 'bedrock', fallback_provider: 'anthropic' }))).toMatchObject({
      provider: 'bedrock',
      fallbackProvider: 'anthropic',
    });
    expect(readSettings(inputs(base)).fallbackProvider).toBeUndefined();
    expect(() => readSettings(inputs({ ...base, fallback_provider: 'openai' }))).toThrow(InputError);
    expect(() => readSettings(inputs({ ...base, fallback_provider: 'openai' }))).toThrow(
      "Input `fallback_provider` must be one of anthropic, bedrock, vertex (got 'openai'). Leave it unset to use `fallback_provider` in .github/crew.yml (no failover by default).",
    );
  });
  it('splits `crew_env` (the CREW_ENV secret) into variables by name; a bad line is named by its number, never its text (#51)', () => {
    expect(readSettings(inputs(base)).crewEnv).toEqual({});
    const text = '# for the MCP servers\r\nDB_URL=postgres://u:p@db/x?a=b\r\n\n  \nAPI_KEY= spaced value \nEMPTY=';
    expect(readSettings(inputs({ ...base, crew_env: text })).crewEnv).toEqual({
      DB_URL: 'postgres://u:p@db/x?a=b',
      API_KEY: ' spaced value ',
      EMPTY: '',
    });
    expect(() => readSettings(inputs({ ...base, crew_env: 'A=value1\nsk-secret-text-no-name' }))).toThrow(
      'Input `crew_env` (the CREW_ENV secret), line 2 is not `NAME=value` with a name of letters, digits and _: write one variable per line, such as `DB_URL=postgres://…`.',
    );
    expect(() => readSettings(inputs({ ...base, crew_env: '1BAD=x' }))).toThrow(/line 1 is not `NAME=value`/);
    expect(() => readSettings(inputs({ ...base, crew_env: 'A=value1\nA=value2' }))).toThrow(
      'Input `crew_env` (the CREW_ENV secret), line 2 sets A a second time: keep one line for it.',
    );
    // A value masked in the job log must not be so short that masking it blanks the log and drops job outputs.
    expect(() => readSettings(inputs({ ...base, crew_env: 'DB_URL=postgres://db\nPORT=543' }))).toThrow(
      /^Input `crew_env` \(the CREW_ENV secret\), line 2 gives PORT a value of fewer than 4 characters: .*drop job outputs/,
    );
    expect(readSettings(inputs({ ...base, crew_env: 'PORT=5432' })).crewEnv).toEqual({ PORT: '5432' });
  });
});
