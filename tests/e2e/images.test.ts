import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/anthropic/script';
import type { AttachmentDownload } from '../support/github/attachments';
import type { FakeGitHub } from '../support/github/fake-github';
import { crewComments, expectFaithful, play, shown } from './helpers';

type Block = { type: string; source?: { type: string; media_type: string; data: string }; text?: string };
const firstUserBlocks = (q: RecordedRequest) => (q.body.messages.find((m) => m.role === 'user')?.content ?? []) as Block[];
const imagesOf = (q: RecordedRequest) => firstUserBlocks(q).filter((b) => b.type === 'image');
const block = (bytes: Buffer, mediaType: string) => ({ type: 'image', source: { type: 'base64', media_type: mediaType, data: bytes.toString('base64') } });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

type Scripted = { entries: Array<{ role: string; replies: Array<{ content: Array<{ type: string; input?: { tasks: Array<Record<string, unknown>> } }> }> }> };
/** The decomposer's scripted tasks in a scenario, to give them images. */
const plannedTasks = (model: unknown) =>
  (model as Scripted).entries.find((e) => e.role === 'decomposer')!.replies[0]!.content.find((b) => b.type === 'tool_use')!.input!.tasks;

/** The bytes of the scenario's upload whose PNG or JPEG header says this width. */
const uploadOf = (gh: FakeGitHub, width: number) =>
  [...gh.attachments.files].find(([, f]) =>
    f.contentType === 'image/png'
      ? f.bytes.length > 24 && f.bytes.readUInt32BE(16) === width
      : f.contentType === 'image/jpeg' && f.bytes.readUInt16BE(27) === width,
  )!;

describe("the issue's images reach the agents (#36, #47)", () => {
  it("a private repository: a PNG in the issue and a JPEG in the /crew comment, which GitHub serves to no token, reach intake, the planner and the worker whose task lists them through the signed links of the texts' body_html, never with a token; a task that starts after the links expired still gets them; refusals and a deleted image are said; the run goes on", async () => {
    let requests: RecordedRequest[] = [];
    let downloads: AttachmentDownload[] = [];
    let shot: Buffer = Buffer.alloc(0);
    let trace: Buffer = Buffer.alloc(0);
    let status = { anonymous: 0, token: 0 };
    let world: FakeGitHub | undefined;
    let deleted = '';
    let expired = 0;
    let atExpiry = 0;
    const r = await play('scenarios/demo.yaml', {
      edit: (s) => {
        expect(s.repo.settings.private ?? true).toBe(true);
        s.attachments = {
          shot: { png: { width: 320, height: 200 }, content_type: 'image/png' },
          notes: { text: 'not a picture, whatever its name says\n', content_type: 'image/png' },
          second: { png: { width: 64, height: 48 }, content_type: 'image/png' },
          huge: { png: { width: 40, height: 30 }, pad_to: 4_000_000, content_type: 'image/png' },
          vector: { text: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', content_type: 'image/svg+xml' },
          trace: { jpeg: { width: 640, height: 480 }, content_type: 'image/jpeg' },
        };
        s.issue.body += [
          '',
          'The header overlaps the title, see ![layout bug]({{attachment:shot}})',
          '![notes.png]({{attachment:notes}})',
          'And the footer: ![footer]({{attachment:second}})',
          '![huge]({{attachment:huge}})',
          '<img src="{{attachment:vector}}" width="20">',
          '',
        ].join('\n');
        // The JPEG is in the comment that asks for the run.
        const ask = s.timeline[0] as { comment: string };
        ask.comment = `${ask.comment}\n\nThe trace: ![trace]({{attachment:trace}})`;
        const tasks = plannedTasks(s.model);
        // The implementation task gets the screenshot and the trace (image-3: the comment's images come after the issue's).
        tasks[0]!.images = ['image-1', 'image-3'];
        // t2's image is deleted once the plan is up, before t2's job fetches it again.
        tasks[1]!.images = ['image-2'];
      },
      hooks: {
        beforeTimeline: async ({ gh }) => {
          world = gh;
        },
        onCrewComment: ({ body }) => {
          if (deleted || !world || !body.includes('shown to t2')) return;
          [deleted] = uploadOf(world, 64);
          world.attachments.files.delete(deleted);
          // An hour on, for the tasks: every signed link planning was given has expired.
          for (const link of world.attachments.links.values()) link.expires = 0;
          expired = world.attachments.links.size;
          atExpiry = world.attachments.downloads.length;
        },
        beforeClose: async ({ anthropic, gh }) => {
          requests = [...anthropic.requests];
          downloads = [...gh.attachments.downloads];
          const [uuid, file] = uploadOf(gh, 320);
          shot = file.bytes;
          trace = uploadOf(gh, 640)[1].bytes;
          // GitHub's rule: a private repository's attachment URL answers 404 to anyone, a token included.
          const token = gh.actionsToken({ contents: 'read' });
          status = {
            anonymous: (await fetch(`${gh.url}/user-attachments/assets/${uuid}`, { redirect: 'manual' })).status,
            token: (await fetch(`${gh.url}/user-attachments/assets/${uuid}`, { redirect: 'manual', headers: { authorization: `Bearer ${token}` } })).status,
          };
        },
      },
    });
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    expect(status).toEqual({ anonymous: 404, token: 404 });

    // The images as image blocks, before the text, in intake's, the planner's and t1's first requests; not in t2's (deleted by then).
    const first = (role: string, task?: string) => requests.find((q) => q.role === role && (task === undefined || q.task === task))!;
    for (const [role, task] of [['intake'], ['decomposer'], ['worker', 't1']] as const) {
      const blocks = firstUserBlocks(first(role, task));
      expect(blocks[0], `${role} ${task ?? ''}`).toEqual(block(shot, 'image/png'));
      // Intake and the planner see all three images; t1's worker the two its task lists.
      expect(imagesOf(first(role, task))).toEqual(
        role === 'worker'
          ? [block(shot, 'image/png'), block(trace, 'image/jpeg')]
          : [block(shot, 'image/png'), expect.objectContaining({ type: 'image' }), block(trace, 'image/jpeg')],
      );
      expect(blocks.at(-1)!.text).toContain('image-1: image/png, 320×200 px');
      expect(blocks.at(-1)!.text).toContain('image-3: image/jpeg, 640×480 px');
    }
    expect(imagesOf(first('worker', 't2'))).toEqual([]);
    // t2's worker is told it has not seen the image its task lists, and why.
    expect(deleted).not.toBe('');
    expect(firstUserBlocks(first('worker', 't2')).at(-1)!.text).toMatch(
      /could not be loaded, so they are not shown and you have not seen them[^\n]*\n- image-2 could not be loaded: GitHub answered 404/,
    );
    expect(imagesOf(first('critic'))).toEqual([]);

    // No request for a file carried a token: not to GitHub's host, not to storage. Every image came through a signed link.
    expect(downloads.length).toBeGreaterThan(0);
    expect(downloads.filter((d) => d.authorization)).toEqual([]);
    expect(downloads.filter((d) => d.host === 'github').every((d) => d.uuid === deleted)).toBe(true);
    // Planning's links had expired before t1's job started: t1 read both images through fresh ones.
    expect(expired).toBeGreaterThan(0);
    const t1 = [uploadOf(world!, 320)[0], uploadOf(world!, 640)[0]];
    const later = downloads.slice(atExpiry).filter((d) => d.host === 'storage' && d.status === 200);
    expect(t1.every((uuid) => later.some((d) => d.uuid === uuid))).toBe(true);

    // The plan comment lists what was read (with its hash and who saw it) and what was refused, and why.
    const plan = shown(crewComments(r).find((c) => c.body.includes('crew · run'))!.body);
    expect(plan).toContain('**Images** · 3 read, 3 refused');
    expect(plan).toMatch(/- not shown to t2: image-2 could not be loaded: GitHub answered 404/);
    expect(plan).toMatch(new RegExp(`- image-1: \`[^\`]+\` · PNG 320×200 px · sha256 \`${sha(shot).slice(0, 16)}\` · shown to t1`));
    expect(plan).toMatch(new RegExp(`- image-3: \`[^\`]+\` · JPEG 640×480 px · sha256 \`${sha(trace).slice(0, 16)}\` · shown to t1`));
    expect(plan).toMatch(/- refused: `[^`]+`: it is not a PNG, JPEG, GIF or WebP image \(checked by its bytes\)/);
    expect(plan).toMatch(/- refused: `[^`]+`: it is over the size limit \(4 MB; at most 3\.75 MB\)/);
    expect(plan).toMatch(/- refused: `[^`]+`: it is an SVG, which crew does not send/);
  }, 360_000);

  it('a public repository: the PNG in the issue and the JPEG in the /crew comment reach intake, the planner and the worker, with no token on any request for them', async () => {
    let requests: RecordedRequest[] = [];
    let downloads: AttachmentDownload[] = [];
    let world: FakeGitHub | undefined;
    const r = await play('scenarios/demo.yaml', {
      edit: (s) => {
        s.repo.settings.private = false;
        s.attachments = {
          shot: { png: { width: 320, height: 200 }, content_type: 'image/png' },
          trace: { jpeg: { width: 640, height: 480 }, content_type: 'image/jpeg' },
        };
        s.issue.body += '\nThe header overlaps the title, see ![layout bug]({{attachment:shot}})\n';
        const ask = s.timeline[0] as { comment: string };
        ask.comment = `${ask.comment}\n\n![trace]({{attachment:trace}})`;
        plannedTasks(s.model)[0]!.images = ['image-2'];
      },
      hooks: {
        beforeClose: async ({ anthropic, gh }) => {
          requests = [...anthropic.requests];
          downloads = [...gh.attachments.downloads];
          world = gh;
        },
      },
    });
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    const [shot, trace] = [uploadOf(world!, 320)[1].bytes, uploadOf(world!, 640)[1].bytes];
    const first = (role: string, task?: string) => requests.find((q) => q.role === role && (task === undefined || q.task === task))!;
    for (const role of ['intake', 'decomposer']) expect(imagesOf(first(role))).toEqual([block(shot, 'image/png'), block(trace, 'image/jpeg')]);
    expect(imagesOf(first('worker', 't1'))).toEqual([block(trace, 'image/jpeg')]);
    expect(imagesOf(first('worker', 't2'))).toEqual([]);
    // Planning read both, t1's job the one its task lists.
    expect(downloads.filter((d) => d.host === 'storage' && d.status === 200)).toHaveLength(3);
    expect(downloads.filter((d) => d.authorization)).toEqual([]);
  }, 360_000);

  it("a follow-up: a screenshot in a reviewer's line comment reaches the follow-up's intake and its worker, through the review comments' body_html", async () => {
    let requests: RecordedRequest[] = [];
    let downloads: AttachmentDownload[] = [];
    let shot: Buffer = Buffer.alloc(0);
    const r = await play('pr-follow-up', {
      edit: (s) => {
        s.attachments = { shot: { png: { width: 300, height: 120 }, content_type: 'image/png' } };
        const comment = s.timeline.find((t) => 'review_comment' in t) as { review_comment: { body: string } };
        comment.review_comment.body += ' Here is how it looks: ![screenshot]({{attachment:shot}})';
      },
      hooks: {
        beforeClose: async ({ anthropic, gh }) => {
          requests = [...anthropic.requests];
          downloads = [...gh.attachments.downloads];
          shot = uploadOf(gh, 300)[1].bytes;
        },
      },
    });
    expectFaithful(r);
    const followUp = requests.filter((q) => q.role === 'intake' && JSON.stringify(q.body.messages).includes('Follow-up 1 on pull request'));
    expect(followUp.length).toBeGreaterThan(0);
    expect(imagesOf(followUp[0]!)).toEqual([block(shot, 'image/png')]);
    // The follow-up's one task is shown it; the first run's worker, before the review, was not.
    const workers = requests.filter((q) => q.role === 'worker');
    expect(imagesOf(workers[0]!)).toEqual([]);
    expect(imagesOf(workers.at(-1)!)).toEqual([block(shot, 'image/png')]);
    expect(downloads.length).toBeGreaterThan(0);
    expect(downloads.filter((d) => d.authorization || d.host === 'github')).toEqual([]);
  }, 360_000);

  it("an answer to crew's questions: its screenshot reaches intake's next pass and the plan's task, through the answer comment's body_html", async () => {
    let requests: RecordedRequest[] = [];
    let downloads: AttachmentDownload[] = [];
    let profile: Buffer = Buffer.alloc(0);
    const r = await play('quoted-reply', {
      edit: (s) => {
        s.attachments = { profile: { png: { width: 200, height: 90 }, content_type: 'image/png' } };
        const answer = s.timeline.find((t) => 'comment' in t && t.comment.includes('Under 5 ms')) as { comment: string };
        answer.comment += '\nThe profile: ![profile]({{attachment:profile}})\n';
      },
      hooks: {
        beforeClose: async ({ anthropic, gh }) => {
          requests = [...anthropic.requests];
          downloads = [...gh.attachments.downloads];
          profile = uploadOf(gh, 200)[1].bytes;
        },
      },
    });
    expectFaithful(r);
    const intakes = requests.filter((q) => q.role === 'intake');
    expect(imagesOf(intakes[0]!)).toEqual([]);
    expect(imagesOf(intakes.at(-1)!)).toEqual([block(profile, 'image/png')]);
    // The plan (a /crew plan run: it waits for approval) gives it to its one task.
    const plan = shown(crewComments(r).find((c) => c.body.includes('crew · run'))!.body);
    expect(plan).toMatch(new RegExp(`- image-1: \`[^\`]+\` · PNG 200×90 px · sha256 \`${sha(profile).slice(0, 16)}\` · shown to t1`));
    expect(downloads.length).toBeGreaterThan(0);
    expect(downloads.filter((d) => d.authorization || d.host === 'github')).toEqual([]);
  }, 360_000);

  it("a person's pull request: a screenshot in its body and a JPEG in the /crew review reach intake and the worker, through the pull request's and the reviews' body_html", async () => {
    let requests: RecordedRequest[] = [];
    let downloads: AttachmentDownload[] = [];
    let world: FakeGitHub | undefined;
    const r = await play('pr-stacked', {
      edit: (s) => {
        s.attachments = {
          shot: { png: { width: 240, height: 100 }, content_type: 'image/png' },
          trace: { jpeg: { width: 800, height: 600 }, content_type: 'image/jpeg' },
        };
        const open = s.timeline.find((t) => 'open_pr' in t) as { open_pr: { body: string } };
        open.open_pr.body += '\n![before]({{attachment:shot}})\n';
        const review = s.timeline.find((t) => 'review' in t) as { review: { body: string } };
        review.review.body += '\n![trace]({{attachment:trace}})\n';
      },
      hooks: {
        beforeClose: async ({ anthropic, gh }) => {
          requests = [...anthropic.requests];
          downloads = [...gh.attachments.downloads];
          world = gh;
        },
      },
    });
    expectFaithful(r);
    const [shot, trace] = [uploadOf(world!, 240)[1].bytes, uploadOf(world!, 800)[1].bytes];
    const intake = requests.find((q) => q.role === 'intake')!;
    expect(imagesOf(intake)).toEqual([block(shot, 'image/png'), block(trace, 'image/jpeg')]);
    expect(imagesOf(requests.find((q) => q.role === 'worker')!)).toEqual([block(shot, 'image/png'), block(trace, 'image/jpeg')]);
    expect(downloads.length).toBeGreaterThan(0);
    expect(downloads.filter((d) => d.authorization || d.host === 'github')).toEqual([]);
  }, 360_000);
});
