import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/anthropic/script';
import type { AttachmentDownload } from '../support/github/attachments';
import type { FakeGitHub } from '../support/github/fake-github';
import { crewComments, expectFaithful, play, shown } from './helpers';

type Block = { type: string; source?: { type: string; media_type: string; data: string }; text?: string };
const firstUserBlocks = (q: RecordedRequest) => (q.body.messages.find((m) => m.role === 'user')?.content ?? []) as Block[];
const imagesOf = (q: RecordedRequest) => firstUserBlocks(q).filter((b) => b.type === 'image');

describe("the issue's images reach the agents (#36)", () => {
  it("a PNG served only with the token reaches intake, the planner and the worker whose task names it; a text file, an oversized image and an SVG are refused with reasons; an image deleted after planning is said in the plan comment and the worker's prompt; the run goes on", async () => {
    let requests: RecordedRequest[] = [];
    let downloads: AttachmentDownload[] = [];
    let shot: Buffer = Buffer.alloc(0);
    let anonymous = 0;
    let world: FakeGitHub | undefined;
    let deleted = '';
    const r = await play('scenarios/demo.yaml', {
      edit: (s) => {
        s.attachments = {
          shot: { png: { width: 320, height: 200 }, content_type: 'image/png' },
          notes: { text: 'not a picture, whatever its name says\n', content_type: 'image/png' },
          second: { png: { width: 64, height: 48 }, content_type: 'image/png' },
          huge: { png: { width: 40, height: 30 }, pad_to: 4_000_000, content_type: 'image/png' },
          vector: { text: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', content_type: 'image/svg+xml' },
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
        // The planner gives the image to the implementation task only.
        const decomposer = (
          s.model as {
            entries: Array<{ role: string; replies: Array<{ content: Array<{ type: string; input?: { tasks: Array<Record<string, unknown>> } }> }> }>;
          }
        ).entries.find((e) => e.role === 'decomposer')!;
        const tasks = decomposer.replies[0]!.content.find((b) => b.type === 'tool_use')!.input!.tasks;
        tasks[0]!.images = ['image-1'];
        // t2's image is deleted once the plan is up, before t2's job fetches it again.
        tasks[1]!.images = ['image-2'];
      },
      hooks: {
        beforeTimeline: async ({ gh }) => {
          world = gh;
        },
        onCrewComment: ({ body }) => {
          if (deleted || !world || !body.includes('shown to t2')) return;
          const [uuid] = [...world.attachments.files].find(([, f]) => f.bytes.length > 24 && f.bytes.readUInt32BE(16) === 64)!;
          world.attachments.files.delete(uuid);
          deleted = uuid;
        },
        beforeClose: async ({ anthropic, gh }) => {
          requests = [...anthropic.requests];
          downloads = [...gh.attachments.downloads];
          const [uuid, file] = [...gh.attachments.files].find(([, f]) => f.bytes.length > 100 && f.bytes.length < 10_000)!;
          shot = file.bytes;
          anonymous = (await fetch(`${gh.url}/user-attachments/assets/${uuid}`)).status;
        },
      },
    });
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);

    // The image as an image block, before the text, in intake's, the planner's and t1's first requests; not in t2's (deleted by then).
    const first = (role: string, task?: string) => requests.find((q) => q.role === role && (task === undefined || q.task === task))!;
    for (const [role, task] of [['intake'], ['decomposer'], ['worker', 't1']] as const) {
      const blocks = firstUserBlocks(first(role, task));
      expect(blocks[0], `${role} ${task ?? ''}`).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: shot.toString('base64') } });
      // Intake and the planner see both images; t1's worker only the one its task lists.
      expect(imagesOf(first(role, task))).toHaveLength(role === 'worker' ? 1 : 2);
      expect(blocks.at(-1)!.text).toContain('image-1: image/png, 320×200 px');
    }
    expect(imagesOf(first('worker', 't2'))).toEqual([]);
    // t2's worker is told it has not seen the image its task lists, and why.
    expect(deleted).not.toBe('');
    expect(firstUserBlocks(first('worker', 't2')).at(-1)!.text).toMatch(
      /could not be loaded, so they are not shown and you have not seen them[^\n]*\n- image-2 could not be loaded: GitHub answered 404/,
    );
    expect(imagesOf(first('critic'))).toEqual([]);

    // The token went to GitHub's host every time, and never to the storage host; without a token GitHub says 404.
    expect(downloads.filter((d) => d.host === 'github').every((d) => d.authorization && (d.status === 302 || d.uuid === deleted))).toBe(true);
    expect(downloads.filter((d) => d.host === 'storage').every((d) => !d.authorization)).toBe(true);
    expect(downloads.filter((d) => d.host === 'storage' && d.status === 200).length).toBeGreaterThanOrEqual(4);
    expect(anonymous).toBe(404);

    // The plan comment lists what was read (with its hash and who saw it) and what was refused, and why.
    const plan = shown(crewComments(r).find((c) => c.body.includes('crew · run'))!.body);
    const sha = (await import('node:crypto')).createHash('sha256').update(shot).digest('hex');
    expect(plan).toContain('**Images** · 2 read, 3 refused');
    expect(plan).toMatch(/- not shown to t2: image-2 could not be loaded: GitHub answered 404/);
    expect(plan).toMatch(new RegExp(`- image-1: \`[^\`]+\` · PNG 320×200 px · sha256 \`${sha.slice(0, 16)}\` · shown to t1`));
    expect(plan).toMatch(/- refused: `[^`]+`: it is not a PNG, JPEG, GIF or WebP image \(checked by its bytes\)/);
    expect(plan).toMatch(/- refused: `[^`]+`: it is over the size limit \(4 MB; at most 3\.75 MB\)/);
    expect(plan).toMatch(/- refused: `[^`]+`: it is an SVG, which crew does not send/);
  }, 360_000);
});
