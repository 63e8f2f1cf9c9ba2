import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LocalForge } from '../../../src/adapters/local/forge';
import { IMAGE_LIMITS, attachmentGuid, attachmentUrl, imageUrls, signedImageUrls, sniffImage, triggerText } from '../../../src/domain/images';
import { Octokit } from '@octokit/core';
import { createIssue } from '../../support/github/routes/issues';
import { renderedMarkup } from '../../../src/text/sanitize';
import { AttachmentRefused, type Log } from '../../../src/ports';
import { forgeOn } from '../../support/github/forge-on';
import { fakeGitHubForTest } from '../../support/github/for-test';
import { pngOf } from '../../support/images';
import { renderPlanComment } from '../../../src/render/plan-comment';
import { GITHUB } from '../../../src/domain/surface';
import { view } from './run-fixtures';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

/** A GIF89a header of this size (the rest of the file does not matter to the size). */
const gif = (w: number, h: number) => Buffer.from([...Buffer.from('GIF89a', 'latin1'), w & 0xff, w >> 8, h & 0xff, h >> 8, 0, 0, 0]);
/** A baseline JPEG's start: SOI, an APP0 segment, then SOF0 with height and width. */
const jpeg = (w: number, h: number) =>
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x4a, 0x46, 0xff, 0xc0, 0x00, 0x11, 0x08, h >> 8, h & 0xff, w >> 8, w & 0xff, 0x03, 0, 0, 0, 0, 0, 0, 0, 0]);
/** A lossless WebP (VP8L) of this size. */
function webp(w: number, h: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBPVP8L', 8, 'latin1');
  b.writeUInt32LE(9, 16);
  b[20] = 0x2f;
  b.writeUInt32LE(((w - 1) & 0x3fff) | (((h - 1) & 0x3fff) << 14), 21);
  return b;
}

describe('images by their bytes (#36)', () => {
  it('reads the four formats and their sizes from the header bytes, never the name', () => {
    expect(sniffImage(pngOf(320, 200))).toEqual({ ok: true, mediaType: 'image/png', width: 320, height: 200 });
    expect(sniffImage(gif(16, 9))).toEqual({ ok: true, mediaType: 'image/gif', width: 16, height: 9 });
    expect(sniffImage(jpeg(640, 480))).toEqual({ ok: true, mediaType: 'image/jpeg', width: 640, height: 480 });
    expect(sniffImage(webp(1000, 700))).toEqual({ ok: true, mediaType: 'image/webp', width: 1000, height: 700 });
  });

  it('refuses what is not an image, an SVG, a damaged header, and what breaks a limit, each with its reason', () => {
    expect(sniffImage(Buffer.from('just notes\n'))).toMatchObject({ ok: false, reason: expect.stringContaining('not a PNG, JPEG, GIF or WebP') });
    expect(sniffImage(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script></svg>'))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('SVG'),
    });
    expect(sniffImage(pngOf(4, 4).subarray(0, 12))).toMatchObject({ ok: false, reason: expect.stringContaining('damaged') });
    expect(sniffImage(Buffer.concat([pngOf(4, 4), Buffer.alloc(IMAGE_LIMITS.bytes)]))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('size limit'),
    });
    expect(sniffImage(gif(8001, 10))).toMatchObject({ ok: false, reason: expect.stringContaining('at most 8000 px') });
    expect(sniffImage(gif(6000, 5000))).toMatchObject({ ok: false, reason: expect.stringContaining('megapixels') });
    expect(sniffImage(new Uint8Array())).toMatchObject({ ok: false, reason: 'the file is empty' });
  });

  it('finds the images a text shows (markdown and <img>), not links to files', () => {
    const text = [
      '![shot](https://github.com/user-attachments/assets/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b)',
      '[log.txt](https://github.com/user-attachments/files/123/log.txt)',
      '<img width="300" alt="x" src="https://github.com/user-attachments/assets/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee" />',
      '![again](https://github.com/user-attachments/assets/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b)',
    ].join('\n');
    expect(imageUrls(text)).toEqual([
      'https://github.com/user-attachments/assets/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b',
      'https://github.com/user-attachments/assets/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
    ]);
  });

  it('looks for images only in what a reader sees: not in an HTML comment, a hidden element or a code block', () => {
    const url = (n: number) => `https://github.com/user-attachments/assets/0000000${n}-4b5a-6978-8a9b-0c1d2e3f4a5b`;
    const text = [
      `![shown](${url(1)})`,
      `<!-- ![hidden](${url(2)}) -->`,
      `<div hidden><img src="${url(3)}"></div>`,
      '```',
      `![code](${url(4)})`,
      '```',
      '',
    ].join('\n');
    expect(imageUrls(renderedMarkup(text))).toEqual([url(1)]);
  });

  it("counts only GitHub's own attachment URLs as fetchable, and the older form only for this repository (any case)", () => {
    const server = 'https://github.com';
    const repo = { owner: 'acme', name: 'widgets' };
    const kind = (url: string) => {
      const k = attachmentUrl(url, server, repo);
      return k.ok ? k.kind : k.reason;
    };
    const id = '0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
    expect(kind(`https://github.com/user-attachments/assets/${id}`)).toBe('unnamed');
    expect(kind(`https://github.com/acme/widgets/assets/12345/${id}`)).toBe('this-repository');
    expect(kind(`https://github.com/ACME/Widgets/assets/12345/${id}`)).toBe('this-repository');
    expect(kind(`https://github.com/acme/payroll/assets/12345/${id}`)).toMatch(/another repository \(acme\/payroll\)/);
    expect(kind(`https://github.com/other/widgets/assets/12345/${id}`)).toMatch(/another repository \(other\/widgets\)/);
    expect(kind(`https://private-user-images.githubusercontent.com/1/2-${id}.png?jwt=x`)).toBe('signed');
    expect(kind('https://github.com/acme/widgets/blob/main/x.png')).toMatch(/not an image uploaded to GitHub/);
    expect(kind(`https://evil.example/user-attachments/assets/${id}`)).toMatch(/not an image uploaded to GitHub/);
    expect(kind(`https://x:y@github.com/user-attachments/assets/${id}`)).toMatch(/not an image uploaded to GitHub/);
  });
});

describe('signed image links in the text GitHub renders (#47)', () => {
  const a = '0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
  const b = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
  const signed = (id: string, host = 'https://private-user-images.githubusercontent.com') => `${host}/6010774/382552750-${id}.png?jwt=eyJ.x.y`;

  it('pairs each signed link with its upload by the GUID in the file name, never by the order of the images', () => {
    // A hidden image, an emoji and a link to the signed file come first in the HTML; the markdown's first image is `a`.
    const html = [
      `<div><a href="${signed(a)}"><img src="${signed(b)}" alt="hidden"></a></div>`,
      '<p><img src="https://github.githubassets.com/images/icons/emoji/unicode/1f41b.png" alt="bug"></p>',
      `<p><a href="${signed(a)}"><img src="${signed(a).replace(/&/g, '&amp;')}" alt="shot"></a></p>`,
    ].join('\n');
    const links = signedImageUrls(html, 'https://github.com');
    expect(links.get(attachmentGuid(`https://github.com/user-attachments/assets/${a}`)!)).toBe(signed(a));
    expect(links.get(attachmentGuid(`https://github.com/acme/widgets/assets/12345/${b}`)!)).toBe(signed(b));
    expect(links.size).toBe(2);
  });

  it('takes a link only on the storage host, with its JWT, and a GUID only from the file name', () => {
    const only = (html: string, server = 'https://github.com') => [...signedImageUrls(html, server).keys()];
    expect(only(`<img src="${signed(a, 'https://evil.example')}">`)).toEqual([]);
    expect(only(`<img src="${signed(a, 'http://private-user-images.githubusercontent.com')}">`)).toEqual([]);
    expect(only(`<img src="${signed(a).replace(/\?jwt=.*/, '')}">`)).toEqual([]);
    expect(only(`<img src="https://private-user-images.githubusercontent.com/1/2-x.png?jwt=e&g=${a}">`)).toEqual([]);
    // Another server (GitHub Enterprise Server, the offline world) serves them from its host or one under it.
    expect(only(`<img src="${signed(a, 'http://private-user-images.github.localhost:9')}">`, 'http://github.localhost:8')).toEqual([a]);
    expect(only(`<img src="${signed(a, 'http://127.0.0.1:9')}">`, 'http://github.localhost:8')).toEqual([]);
  });

  it('names the text that asked: the /crew comment, a review, a review comment; nothing for a label', () => {
    expect(triggerText({ commentId: 7 }, 3)).toEqual({ kind: 'comment', id: 7 });
    expect(triggerText({ commentId: 7, how: 'review' }, 3)).toEqual({ kind: 'reviews', pull: 3 });
    expect(triggerText({ commentId: 7, how: 'review_comment' }, 3)).toEqual({ kind: 'review-comments', pull: 3 });
    expect(triggerText({ commentId: 0, how: 'label' }, 3)).toBeUndefined();
  });
});

describe("GitHubForge.attachment against the fake GitHub's attachments (#36, #47)", () => {
  /** A private repository's issue with a hidden image first and the screenshot after it. */
  async function privateIssue(prefix: string) {
    const { gh } = await fakeGitHubForTest({ prefix, apiUrl: true });
    const png = pngOf(32, 24);
    const url = gh.attachments.add(png, 'image/png', gh.owner);
    const hidden = gh.attachments.add(pngOf(4, 4), 'image/png', gh.owner);
    const issue = createIssue(gh, { kind: 'user', login: gh.owner }, { title: 'T', body: `<div hidden><img src="${hidden}"></div>\n\nSee ![shot](${url})\n` });
    return { gh, png, url, issue: issue.number };
  }

  it("reads a private repository's image through the signed link of the issue's body_html, and no request for the file carries a token", async () => {
    const { gh, png, url, issue } = await privateIssue('attach-');
    const token = gh.actionsToken({ contents: 'write', issues: 'read' });
    const forge = forgeOn(gh, token, log, { serverUrl: gh.serverUrl });
    expect(Buffer.from(await forge.attachment(url, IMAGE_LIMITS.bytes, [{ kind: 'issue', number: issue }])).equals(png)).toBe(true);
    expect(gh.attachments.downloads).toEqual([{ host: 'storage', uuid: url.split('/').pop(), status: 200, authorization: false }]);
    expect(gh.requestCounts().byRoute['GET /repos/{owner}/{repo}/issues/{issue_number}']).toBe(1);
    // GitHub's rule, which the fake holds: the attachment URL answers 404 to a token as to anyone;
    // a signed link refuses a second credential. (The test dials the `.localhost` names at loopback itself.)
    const dial = (u: string) => u.replace(/\/\/[\w.-]*localhost:/, '//127.0.0.1:');
    expect((await fetch(dial(url), { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' })).status).toBe(404);
    expect((await fetch(dial(url), { redirect: 'manual' })).status).toBe(404);
    const { data } = await new Octokit({ auth: token, baseUrl: gh.url }).request('GET /repos/{owner}/{repo}/issues/{issue_number}', {
      owner: gh.owner,
      repo: gh.repoName,
      issue_number: issue,
      mediaType: { format: 'full' },
    });
    const link = signedImageUrls(data.body_html!, gh.serverUrl).get(attachmentGuid(url)!)!;
    expect((await fetch(dial(link), { headers: { authorization: `Bearer ${token}` } })).status).toBe(400);
    expect((await fetch(dial(link))).status).toBe(200);
  });

  it('asks for the text again when its signed link has expired, and reads the image through the fresh one', async () => {
    const { gh, png, url, issue } = await privateIssue('attach-');
    const token = gh.actionsToken({ contents: 'write', issues: 'read' });
    const forge = forgeOn(gh, token, log, { serverUrl: gh.serverUrl });
    const from = [{ kind: 'issue' as const, number: issue }];
    expect(Buffer.from(await forge.attachment(url, IMAGE_LIMITS.bytes, from)).equals(png)).toBe(true);
    // Five minutes on: every link handed out so far has expired.
    for (const link of gh.attachments.links.values()) link.expires = 0;
    expect(Buffer.from(await forge.attachment(url, IMAGE_LIMITS.bytes, from)).equals(png)).toBe(true);
    expect(gh.attachments.downloads.map((d) => d.status)).toEqual([200, 404, 200]);
    expect(gh.attachments.downloads.every((d) => d.host === 'storage' && !d.authorization)).toBe(true);
    expect(gh.requestCounts().byRoute['GET /repos/{owner}/{repo}/issues/{issue_number}']).toBe(2);
  });

  it("reads a public repository's image, whose URL redirects anyone, with no token", async () => {
    const { gh } = await fakeGitHubForTest({ prefix: 'attach-', apiUrl: true });
    gh.settings.private = false;
    const png = pngOf(20, 10);
    const url = gh.attachments.add(png, 'image/png', gh.owner);
    const forge = forgeOn(gh, gh.actionsToken({ contents: 'write' }), log, { serverUrl: gh.serverUrl });
    expect(Buffer.from(await forge.attachment(url, IMAGE_LIMITS.bytes)).equals(png)).toBe(true);
    expect(gh.attachments.downloads).toEqual([
      { host: 'github', uuid: expect.any(String), status: 302, authorization: false },
      { host: 'storage', uuid: expect.any(String), status: 200, authorization: false },
    ]);
  });

  it('refuses an oversized file before reading it whole, a URL that is not an attachment, and a missing one', async () => {
    const { gh } = await fakeGitHubForTest({ prefix: 'attach-', apiUrl: true });
    gh.settings.private = false;
    const forge = forgeOn(gh, gh.actionsToken({ contents: 'write' }), log, { serverUrl: gh.serverUrl });
    const big = gh.attachments.add(Buffer.alloc(IMAGE_LIMITS.bytes + 10), 'image/png', gh.owner);
    await expect(forge.attachment(big, IMAGE_LIMITS.bytes)).rejects.toThrow(/over the size limit/);
    await expect(forge.attachment(`${gh.url}/acme/widgets/blob/main/README.md`, IMAGE_LIMITS.bytes)).rejects.toThrow(/not an image uploaded to GitHub/);
    await expect(forge.attachment(`${gh.serverUrl}/user-attachments/assets/00000000-0000-0000-0000-000000000000`, IMAGE_LIMITS.bytes)).rejects.toThrow(/404/);
  });

  it("never follows signed links rendered for a token that reads more than this repository: the issue's author could paste another private repository's image (security)", async () => {
    const { gh, url, issue } = await privateIssue('attach-');
    gh.addUser('mona', { permission: 'admin' });
    const png = pngOf(12, 12);
    // mona reads acme/payroll too, a private repository crew does not work on; its image's URL does not say so.
    const theirs = gh.attachments.add(png, 'image/png', 'mona', { fullName: 'acme/payroll', readers: ['mona'], public: false });
    const shown = gh.attachments.add(png, 'image/png', 'mona', { fullName: 'acme/handbook', readers: [], public: true });
    const pasted = createIssue(gh, { kind: 'user', login: 'mona' }, { title: 'P', body: `![a](${theirs}) ![b](${shown})` }).number;
    const pat = gh.userToken('mona');
    const personal = forgeOn(gh, pat, log, { serverUrl: gh.serverUrl, tokenKind: 'personal' });
    await expect(personal.attachment(theirs, IMAGE_LIMITS.bytes, [{ kind: 'issue', number: pasted }])).rejects.toThrow(/without credentials.*GITHUB_TOKEN/);
    // This repository's own image too: crew cannot tell the two apart by the signed link.
    await expect(personal.attachment(url, IMAGE_LIMITS.bytes, [{ kind: 'issue', number: issue }])).rejects.toThrow(/404/);
    // A public repository's image needs no token, and gets none.
    expect(Buffer.from(await personal.attachment(shown, IMAGE_LIMITS.bytes, [{ kind: 'issue', number: pasted }])).equals(png)).toBe(true);
    expect(gh.attachments.downloads.every((d) => !d.authorization)).toBe(true);
    expect(gh.requestCounts().byRoute['GET /repos/{owner}/{repo}/issues/{issue_number}']).toBeUndefined();
    // The older URL form names its repository: another one's is refused before any request.
    const legacy = `${gh.serverUrl}/acme/payroll/assets/12345/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b`;
    await expect(personal.attachment(legacy, IMAGE_LIMITS.bytes)).rejects.toThrow(/another repository \(acme\/payroll\)/);
    // The workflow's own token reads this repository only (GitHub's docs): GitHub signs no other private repository's upload for it.
    const workflow = forgeOn(gh, gh.actionsToken({ contents: 'write', issues: 'read' }), log, { serverUrl: gh.serverUrl });
    await expect(workflow.attachment(theirs, IMAGE_LIMITS.bytes, [{ kind: 'issue', number: pasted }])).rejects.toThrow(/404/);
    expect(gh.attachments.downloads.every((d) => !d.authorization)).toBe(true);
  });
});

describe('images a later job could not load, in the plan comment (#36)', () => {
  it("lists each as not shown to the planner or to the task, with crew's reason, next to what was read", () => {
    const read = {
      id: 'image-2',
      source: 'https://github.com/user-attachments/assets/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b',
      sha256: 'a'.repeat(64),
      mediaType: 'image/png' as const,
      bytes: 10,
      width: 4,
      height: 4,
    };
    const v = view(['running', 'pending'], { images: [read], imagesNotLoaded: ['image-2 could not be loaded: its bytes changed since planning read them'] });
    v.tasks.set('t1', { ...v.tasks.get('t1')!, imagesNotLoaded: ['image-2 could not be loaded: GitHub answered 404'] });
    const links = {
      branch: (b: string) => `https://x/${b}`,
      comment: (_i: number, id: number) => `#${id}`,
      run: 'https://run',
      stateFile: (p: string) => `https://state/${p}`,
    };
    const body = renderPlanComment(v, links, GITHUB);
    expect(body).toContain('**Images** · 1 read, 0 refused');
    expect(body).toContain('- not shown to the planner: image-2 could not be loaded: its bytes changed since planning read them');
    expect(body).toContain('- not shown to t1: image-2 could not be loaded: GitHub answered 404');
  });
});

describe('local mode reads only the images given with --image (#46)', () => {
  it('a file:// URL in the request text that is not an --image file is refused, and never read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-images-'));
    try {
      const given = join(dir, 'shot.png');
      const other = join(dir, 'private.png');
      await writeFile(given, pngOf(4, 3));
      await writeFile(other, pngOf(8, 8));
      const forge = new LocalForge(join(dir, 'run'), dir, 'main', {
        dispatch: () => undefined,
        workflowRunActive: () => false,
        workLegsStarted: () => [],
        workLegsRunning: () => [],
        branchSha: async () => 'unused',
        images: [pathToFileURL(given).href],
      });
      expect(Buffer.from(await forge.attachment(pathToFileURL(given).href, IMAGE_LIMITS.bytes))).toEqual(pngOf(4, 3));
      const refused = await forge.attachment(pathToFileURL(other).href, IMAGE_LIMITS.bytes).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AttachmentRefused);
      expect((refused as Error).message).toBe('locally crew reads only the files given with --image, and this one was not');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
