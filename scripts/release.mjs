#!/usr/bin/env node
/**
 * The release job's last step (.github/workflows/release.yml): for the pushed tag vX.Y.Z it checks
 * that package.json says X.Y.Z, creates the GitHub release with CHANGELOG.md's `## [X.Y.Z]` section
 * as its notes, and points the major tag vX at the release's commit. Plain Node, no dependencies.
 * Reads GITHUB_REF, GITHUB_SHA, GITHUB_REPOSITORY, GITHUB_API_URL and GITHUB_TOKEN.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

function fail(message) {
  console.error(`::error::${message}`);
  process.exit(1);
}

/** The notes of one version in a Keep a Changelog file: from its heading to the next version's. */
export function changelogSection(text, version) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\]`).test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && (/^## /.test(l) || /^\[[^\]]+\]: /.test(l)));
  return (
    lines
      .slice(start + 1, end < 0 ? undefined : end)
      .join('\n')
      .trim() || undefined
  );
}

async function main() {
  const env = (name) => process.env[name] || fail(`${name} is not set; run this script in the release workflow`);
  const ref = env('GITHUB_REF');
  const tag = ref.replace(/^refs\/tags\//, '');
  const parts = /^v(\d+)\.(\d+)\.(\d+)$/.exec(tag);
  if (!ref.startsWith('refs/tags/') || !parts) fail(`${ref} is not a release tag; tag the commit as vX.Y.Z (docs/RELEASING.md)`);
  const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
  if (tag !== `v${version}`)
    fail(`the tag ${tag} does not match package.json's version ${version}: set "version" to ${tag.slice(1)} in package.json, or tag the commit that has it`);
  const notes = changelogSection(readFileSync('CHANGELOG.md', 'utf8'), version);
  if (!notes) fail(`CHANGELOG.md has no notes under "## [${version}]": move the Unreleased notes under that heading, commit, and tag again`);

  const api = `${env('GITHUB_API_URL')}/repos/${env('GITHUB_REPOSITORY')}`;
  const sha = env('GITHUB_SHA');
  // A workflow's own token cannot move a tag past commits that change .github/workflows (GitHub
  // refuses an App without the `workflows` permission); RELEASE_TOKEN, when set, can.
  const token = process.env.RELEASE_TOKEN || env('GITHUB_TOKEN');
  const call = async (method, path, body) => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'content-type': 'application/json',
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : {} };
  };

  const existingRelease = await call('GET', `/releases/tags/${tag}`);
  if (existingRelease.status === 200) fail(`a release for ${tag} exists already; a version is released once (bump the version for a new one)`);

  // The major tag first: if it cannot move, nothing is published and the job can simply run again.
  const major = `v${parts[1]}`;
  const existing = await call('GET', `/git/ref/tags/${major}`);
  const moved =
    existing.status === 404
      ? await call('POST', '/git/refs', { ref: `refs/tags/${major}`, sha })
      : await call('PATCH', `/git/refs/tags/${major}`, { sha, force: true });
  if (moved.status !== 200 && moved.status !== 201) {
    const why = /workflow/.test(moved.json.message ?? '')
      ? `${moved.json.message}. The commits since ${major} change a workflow, which the workflow's own token may not do: add a repository secret RELEASE_TOKEN (a token with Contents and Workflows write) and run the job again`
      : (moved.json.message ?? '');
    fail(
      `GitHub did not move ${major} to ${tag} (${moved.status}): ${why}. Nothing was released. Or move it by hand (git tag -f ${major} ${tag} && git push -f origin ${major}) and run the job again.`,
    );
  }
  console.log(`${major} now points at ${tag} (${sha.slice(0, 7)})`);

  const created = await call('POST', '/releases', { tag_name: tag, target_commitish: sha, name: tag, body: notes });
  if (created.status !== 201)
    fail(`${major} points at ${tag}, but GitHub did not create the release (${created.status}): ${created.json.message ?? ''}. Run the job again.`);
  console.log(`released ${tag}: ${created.json.html_url}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
