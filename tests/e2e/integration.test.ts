import { describe, expect, it } from 'vitest';
import type { Script } from '../support/anthropic/script';
import { crewComments, expectFaithful, play } from './helpers';

const BOTH = "  return text === '' ? '' : text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();";

async function integrated(gh: { repo: { readFile(ref: string, path: string): Promise<string | undefined> } }) {
  return {
    index: (await gh.repo.readFile('refs/heads/crew/1/r1/integration', 'src/index.js')) ?? '',
    notes: (await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/integration.md')) ?? '',
  };
}

describe('integration: two tasks edit the same line', () => {
  it('the resolver gets both hunks and both intents, and keeps both', async () => {
    let got = { index: '', notes: '' };
    let resolverPrompt = '';
    const r = await play('integration-conflict', {
      hooks: {
        beforeClose: async ({ gh, anthropic }) => {
          got = await integrated(gh);
          resolverPrompt = JSON.stringify(anthropic.requests.find((q) => q.role === 'resolver')?.body.messages[0]);
        },
      },
    });
    expectFaithful(r);
    expect(resolverPrompt).toContain('t1 \\"Handle the empty string\\"');
    expect(resolverPrompt).toContain('t2 \\"Lower-case the rest\\"');
    expect(resolverPrompt).toContain("return text === '' ? '' : text.charAt(0).toUpperCase() + text.slice(1);");
    expect(resolverPrompt).toContain('return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();');
    expect(got.index).toContain(BOTH);
    expect(got.index).not.toMatch(/^(<{7}|={7}|>{7})/m);
    expect(got.notes).toContain("- t2 in src/index.js: Kept t1's empty-string guard and t2's lower-casing");
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toEqual(['src/index.js']);
  }, 360_000);

  it('when the resolver cannot keep both, a person gets the files and hunks; /crew retry integrates again', async () => {
    let sessions = 0;
    let got = { index: '', notes: '' };
    const r = await play('integration-conflict', {
      edit: (s) => {
        const script = s.model as Script;
        script.entries = script.entries.filter((e) => e.role !== 'resolver');
        // The first resolver gives up; the second (after /crew retry) resolves.
        script.respond = (q) => {
          if (q.role !== 'resolver') return undefined;
          if (q.turn === 0) sessions++;
          if (sessions === 1)
            return {
              content: [
                {
                  type: 'tool_use',
                  name: 'submit_resolution',
                  input: { resolved: false, explanation: 'Both tasks rewrite the same return statement and I cannot tell which should win.' },
                },
              ],
            };
          if (q.turn === 0)
            return {
              content: [
                {
                  type: 'tool_use',
                  name: 'write_file',
                  input: {
                    path: 'src/index.js',
                    content: `/** Upper-cases the first letter of a string. */\nexport function capitalize(text) {\n${BOTH}\n}\n`,
                  },
                },
              ],
            };
          return { content: [{ type: 'tool_use', name: 'submit_resolution', input: { resolved: true, explanation: 'Kept both.' } }] };
        };
        s.timeline.push({ comment: '/crew retry', author: 'maintainer' }, { wait: 'idle' });
      },
      hooks: { beforeClose: async ({ gh }) => void (got = await integrated(gh)) },
    });
    expectFaithful(r);
    const ask = crewComments(r).find((c) => c.body.startsWith('**crew needs a decision**'))!;
    expect(ask.body).toContain(
      'merging **t2** into `crew/1/r1/integration` conflicts with t1 in `src/index.js`, and the resolver could not keep both intents: Both tasks rewrite the same return statement',
    );
    expect(ask.body).toContain('Nothing was lost: every task branch is still there');
    expect(ask.body).toContain("the integration branch (t1):\n```\n  return text === '' ? '' : text.charAt(0).toUpperCase() + text.slice(1);\n```");
    expect(ask.body).toContain('t2:\n```\n  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();\n```');
    expect(ask.body).toContain('`/crew retry`');
    expect(sessions).toBe(2);
    expect(got.index).toContain(BOTH);
    expect(r.pulls).toHaveLength(1);
    expect(r.issue.labels).toEqual([]);
  }, 360_000);
});
