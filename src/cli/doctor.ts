import { resolve } from 'node:path';
import { createClient } from '../adapters/github/octokit';
import { GitHubRepositorySettings } from '../adapters/github/repository-settings';
import { diagnose, healthy } from '../domain/doctor';
import { gatherFacts } from '../doctor/gather';
import { doctorJson, doctorText } from '../doctor/report';
import type { Output } from '../local/live-view';
import { UsageError } from '../local/workspace';
import { addSecret } from '../text/redact';
import type { Command } from './args';
import { originRepo } from './compose';

/** `crew doctor`: the repository's setup on GitHub, read with the person's token; exit 1 when something needs fixing. */
export async function doctor(cmd: Extract<Command, { kind: 'doctor' }>, out: Output): Promise<number> {
  const token = process.env.GITHUB_TOKEN || process.env.GH_TOKEN;
  if (!token)
    throw new UsageError(
      "crew doctor reads the repository's settings through GitHub's API: set GITHUB_TOKEN or GH_TOKEN (GITHUB_TOKEN=$(gh auth token) npx crew doctor). An admin's token sees every setting.",
    );
  addSecret(token);
  const repo = cmd.repo ?? (await originRepo(resolve(cmd.project)));
  if (!repo) throw new UsageError(`crew doctor needs the repository: run it in a clone whose origin is on GitHub, or pass --repo OWNER/NAME.`);
  const [owner, name] = repo.split('/') as [string, string];
  const quiet = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
  const settings = new GitHubRepositorySettings(createClient(token, quiet), { owner, repo: name }, process.env.GITHUB_SERVER_URL ?? 'https://github.com');
  const facts = await gatherFacts(settings, { asking: 'token' }).catch((e: unknown) => {
    const status = (e as { status?: number }).status;
    if (status === 404 || status === 401)
      throw new UsageError(`GitHub shows no repository ${repo} to this token (${status}): check the name, and that the token can read it.`);
    throw e;
  });
  const findings = diagnose(facts);
  out.write(cmd.json ? doctorJson(facts, findings) : doctorText(facts, findings));
  return healthy(findings) ? 0 : 1;
}
