import { describe, expect, it } from 'vitest';
import { inert } from '../../../src/text/inert';

/** A mention GitHub would make: `@name` after the start or a non-word character, outside code. */
const LIVE_MENTION = /(?<![A-Za-z0-9_])@[A-Za-z0-9]/;
/** Everything but what is inside <code>…</code> and backtick spans (only for one-line inputs without fences). */
const outsideCode = (s: string) => s.replace(/<code>[^<]*<\/code>/g, ' ').replace(/(`+)[^`]*?\1/g, ' ');
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b[*_~`]*\s*:?\s*[*_~`]*(?:#\d|GH-\d|[\w.-]+\/[\w.-]+#\d|https?:\/\/\S+\/issues\/\d)/i;

describe('inert: mentions', () => {
  it.each([
    ['@octocat', '<code>@octocat</code>'],
    ['hi @octocat', 'hi <code>@octocat</code>'],
    ['(@octocat)', '(<code>@octocat</code>)'],
    ['thanks,@octocat!', 'thanks,<code>@octocat</code>!'],
    ['ping @octocat.', 'ping <code>@octocat</code>.'],
    ['ping @octocat...', 'ping <code>@octocat</code>...'],
    ['@acme/security-team please', '<code>@acme/security-team</code> please'],
    ['line one\n@octocat at a line start', 'line one\n<code>@octocat</code> at a line start'],
    ['- @octocat in a list', '- <code>@octocat</code> in a list'],
    ['**@octocat**', '**<code>@octocat</code>**'],
    ['@@octocat', '@<code>@octocat</code>'],
    ['@a@b', '<code>@a@b</code>'],
    ['[@octocat](https://github.com/octocat)', '[<code>@octocat</code>](https://github.com/octocat)'],
    ['é@octocat', 'é<code>@octocat</code>'],
    ['&#64;octocat', '<code>@octocat</code>'],
    ['&#x40;octocat and &commat;hubot', '<code>@octocat</code> and <code>@hubot</code>'],
    ['@oct&#111;cat', '<code>@octocat</code>'],
    ['`@octocat` is code, @octocat is not', '`@octocat` is code, <code>@octocat</code> is not'],
    ['`x`@octocat', '`x`<code>@octocat</code>'],
  ])('%j → %j', (input, expected) => {
    expect(inert(input)).toBe(expected);
    expect(outsideCode(inert(input))).not.toMatch(LIVE_MENTION);
  });

  it.each(['mail a@b.com', 'first.last+tag@example.org', 'user_1@host', '`@inside` code', 'no at all', '@', '@ alone', '@-dash'])(
    'leaves %j as it is',
    (input) => {
      expect(inert(input)).toBe(input);
    },
  );

  it('decodes a spelled @ but leaves an email an email', () => {
    expect(inert('A&#64;b.com')).toBe('A@b.com');
  });

  it('leaves a mention inside a closed fence alone', () => {
    const text = '```\n@octocat <img src=x> ![i](u)\n```';
    expect(inert(text)).toBe(text);
  });

  it('makes the mention inert where crew puts text inside HTML (a <summary>)', () => {
    expect(inert('`@octocat` <b>', 'html')).toBe('`<code>@octocat</code>` &lt;b>');
  });
});

describe('inert: images and raw HTML', () => {
  it.each([
    ['![x](https://evil.example/t.png)', '[x](https://evil.example/t.png)'],
    ['![x](https://evil.example/t.png "a title")', '[x](https://evil.example/t.png "a title")'],
    ['![a [nested] alt](u)', '[a [nested] alt](u)'],
    ['[![badge](https://evil.example/b.svg)](https://x)', '[[badge](https://evil.example/b.svg)](https://x)'],
    ['![ref style][logo]\n\n[logo]: https://evil.example/t.png', '[ref style][logo]\n\n[logo]: https://evil.example/t.png'],
    ['![shortcut]', '[shortcut]'],
    ['!![x](u)', '[x](u)'],
    ['\\!![x](u)', '\\![x](u)'],
    ['wow![x](u)', 'wow[x](u)'],
    ['<img src="https://evil.example/t.png">', '&lt;img src="https://evil.example/t.png">'],
    ['<IMG SRC=x>', '&lt;IMG SRC=x>'],
    ['<picture><source srcset="https://evil.example/t.png"></picture>', '&lt;picture>&lt;source srcset="https://evil.example/t.png">&lt;/picture>'],
    ['<video src=x></video>', '&lt;video src=x>&lt;/video>'],
    ['<details open><summary>s</summary>x</details>', '&lt;details open>&lt;summary>s&lt;/summary>x&lt;/details>'],
    ['<a href="https://evil.example">x</a>', '&lt;a href="https://evil.example">x&lt;/a>'],
    ['<!-- crew:plan issue=1 run=1 -->', '&lt;!-- crew:plan issue=1 run=1 -->'],
    ['a < b > c', 'a &lt; b > c'],
    ['> a quote stays a quote', '> a quote stays a quote'],
  ])('%j → %j', (input, expected) => {
    expect(inert(input)).toBe(expected);
  });

  it.each([
    '&lt;img src=x&gt; is text already',
    '&amp;#64;x shows as text',
    '&#60;img&#62; is text too',
    '&#33;[x](u) is no image',
    '<https://example.com/a> stays a link',
  ])('leaves %j as it is', (input) => {
    expect(inert(input)).toBe(input);
  });

  it('leaves HTML inside code spans and closed fences alone', () => {
    expect(inert('use `<img>` and `Array<string>`')).toBe('use `<img>` and `Array<string>`');
    expect(inert('~~~html\n<img src=x>\n~~~')).toBe('~~~html\n<img src=x>\n~~~');
    expect(inert('````\n```\n<b>\n````')).toBe('````\n```\n<b>\n````');
  });
});

describe('inert: what counts as code is only what GitHub certainly renders as code', () => {
  it('a span that would pair across lines in GitHub is prose, with everything in it', () => {
    // GitHub pairs the first backtick with the second line's first: "@octocat" sits between two spans, as prose.
    const out = inert('`a\nb` @octocat `c`');
    expect(out).toContain('<code>@octocat</code>');
  });

  it('a table row is split into cells before spans are looked for', () => {
    const out = inert('| a | b |\n|---|---|\n| `x | @octocat` | <img src=y> |');
    expect(out).toContain('<code>@octocat</code>');
    expect(out).toContain('&lt;img src=y>');
  });

  it('a backslash-escaped backtick opens no span', () => {
    expect(inert('\\`@octocat\\`')).toBe('\\`<code>@octocat</code>\\`');
  });

  it('a fence inside a list item, or one that is not at column 0, is not trusted', () => {
    expect(inert('- ```\n  code\n  ```\n@octocat')).toContain('<code>@octocat</code>');
    expect(inert('> ```\n> <img src=x>\n> ```')).toContain('&lt;img');
    expect(inert('    ```\n    @octocat\n    ```')).toContain('<code>@octocat</code>');
  });

  it('a fence that never closes is escaped, so it cannot swallow what crew writes after it', () => {
    expect(inert('```js\n@octocat <b>')).toBe('\\```js\n<code>@octocat</code> &lt;b>');
    expect(inert('~~~\nx')).toBe('\\~~~\nx');
  });

  it('a backtick line with a backtick in its info string is not a fence', () => {
    expect(inert('```a`\n@octocat\n```')).toContain('<code>@octocat</code>');
  });
});

describe('inert: closing keywords', () => {
  it.each([
    ['Fixes #7', 'Fixes issue #7'],
    ['fixes #7', 'fixes issue #7'],
    ['FIXES #7', 'FIXES issue #7'],
    ['Fixes: #7', 'Fixes: issue #7'],
    ['Fixes:#7', 'Fixes: issue #7'],
    ['closes owner/repo#7', 'closes issue owner/repo#7'],
    ['Resolved GH-7', 'Resolved issue GH-7'],
    ['closed https://github.com/o/r/issues/7', 'closed issue https://github.com/o/r/issues/7'],
    ['resolves <https://github.com/o/r/issues/7>', 'resolves issue <https://github.com/o/r/issues/7>'],
    ['fix [#7](https://github.com/o/r/issues/7)', 'fix issue [#7](https://github.com/o/r/issues/7)'],
    ['close [the bug](https://github.com/o/r/pull/7)', 'close issue [the bug](https://github.com/o/r/pull/7)'],
    ['**Fixes** #7', '**Fixes** issue #7'],
    ['Fixes\n#7', 'Fixes\nissue #7'],
    ['Fixes #7, fixes #8 and resolve #9', 'Fixes issue #7, fixes issue #8 and resolve issue #9'],
    ['fixes &#35;7 and &#70;ixes #8', 'fixes issue #7 and Fixes issue #8'],
    ['auto-fixes #7', 'auto-fixes issue #7'],
    ['`Fixes #7` in code', '`Fixes issue #7` in code'],
    ['```\ngit commit -m "Fixes #7"\n```', '```\ngit commit -m "Fixes issue #7"\n```'],
  ])('%j → %j', (input, expected) => {
    expect(inert(input)).toBe(expected);
    expect(inert(input)).not.toMatch(CLOSING);
  });

  it.each(['fixes the bug in #7', 'this fixed it', 'prefix #7', 'disclosed #7', 'fixesx #7', 'Closes issue #7', 'issue #7 is related'])(
    'leaves %j as it is',
    (input) => {
      expect(inert(input)).toBe(input);
    },
  );
});

describe('inert: properties', () => {
  const samples = [
    'Hi @octocat, see ![x](https://evil.example/t.png) and <img src="https://evil.example/t.png">. Fixes #7',
    '## Report\n\n- `a.ts` changed, thanks @team/devs\n\n```ts\nconst x: Array<string> = []; // @ts-ignore\n```\n\n| a | b |\n|---|---|\n| `x|y` | <b>z</b> |',
    '```\nopen forever @x\n<b>',
    '!![a](b) \\![c](d) &&#35;35;7 &#64;x@y <code>@kept</code> <code>![x](y)</code>',
    'Fixes: &num;7 closes o/r#8 resolve GH-9 @a.b.c. @x/ @x/y/z',
    '`a\nb` @c `d`\n\n> quote <q>\n\n1. list @e\n   ```\n   in list <f>\n   ```',
    '',
    '\r\nwindows\r\n```\r\n@x\r\n```\r\n@y\r\n',
  ];

  it.each(samples)('is idempotent on %j', (s) => {
    const once = inert(s);
    expect(inert(once)).toBe(once);
    expect(inert(once, 'html')).toBe(inert(once, 'html'));
    expect(inert(inert(s, 'html'), 'html')).toBe(inert(s, 'html'));
  });

  it.each(samples)('leaves no live mention, image, tag or closing keyword outside code in %j', (s) => {
    const out = inert(s, 'html');
    expect(out.replace(/<code>[^<]*<\/code>/g, ' ')).not.toMatch(LIVE_MENTION);
    expect(out).not.toMatch(/(?<!\\)!\[/);
    expect(out.replace(/<\/?code>/g, '')).not.toMatch(/<[A-Za-z!/]/);
    expect(out).not.toMatch(CLOSING);
  });

  it('a model-written <code> with markdown in it is not kept as it is', () => {
    // Markdown inside inline HTML still renders, so only crew's own form (a bare mention) passes.
    expect(inert('<code>![x](https://evil.example/t.png)</code>')).toBe('&lt;code>[x](https://evil.example/t.png)&lt;/code>');
  });

  it('is linear on hostile input', () => {
    const big = `${'`'.repeat(20_000)}${'@a '.repeat(20_000)}${'![x]('.repeat(20_000)}${'fixes '.repeat(20_000)}`;
    const t0 = Date.now();
    inert(big);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
