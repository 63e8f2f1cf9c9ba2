import { describe, expect, it } from 'vitest';
import { foldersAbove, instructionPaths, instructionsSection } from '../../../src/domain/agent-instructions';

const at = (files: string[]) => async (p: string) => files.includes(p);

describe("the repository's agent instructions (#19 §5)", () => {
  it('folders above a planned path, nearest first, the root left out; a glob or folder counts up to its wildcard', () => {
    expect(foldersAbove('src/lib/a.ts')).toEqual(['src/lib', 'src']);
    expect(foldersAbove('README.md')).toEqual([]);
    expect(foldersAbove('packages/web/**/*.tsx')).toEqual(['packages/web', 'packages']);
    expect(foldersAbove('docs/')).toEqual(['docs']);
  });

  it('reads the root files, then for each planned path the nearest folder above it that has one', async () => {
    const files = [
      'CLAUDE.md',
      '.github/copilot-instructions.md',
      'packages/AGENTS.md',
      'packages/web/CLAUDE.md',
      'packages/web/AGENTS.md',
      'docs/guide/CLAUDE.md',
    ];
    expect(await instructionPaths(['packages/web/src/app.tsx', 'packages/api/x.ts', 'README.md'], at(files))).toEqual([
      'CLAUDE.md',
      '.github/copilot-instructions.md',
      'packages/web/CLAUDE.md',
      'packages/web/AGENTS.md',
      'packages/AGENTS.md',
    ]);
    // The planner and the critic without planned paths: the root only.
    expect(await instructionPaths([], at(files))).toEqual(['CLAUDE.md', '.github/copilot-instructions.md']);
    expect(await instructionPaths(['src/a.ts'], at([]))).toEqual([]);
  });

  it('shows each file under its path and says when it cut one', () => {
    expect(instructionsSection([])).toBe('');
    const s = instructionsSection(
      [
        { path: 'CLAUDE.md', text: 'Use tabs.' },
        { path: 'AGENTS.md', text: 'x'.repeat(100) },
      ],
      120,
    );
    expect(s).toContain("## The repository's instructions for agents");
    expect(s).toContain('### CLAUDE.md\nUse tabs.');
    expect(s).toContain(`### AGENTS.md\n${'x'.repeat(60)}\n[cut: AGENTS.md has 100 characters; the first 60 are shown]`);
    const third = instructionsSection(
      [
        { path: 'a/CLAUDE.md', text: 'y'.repeat(60) },
        { path: 'b/CLAUDE.md', text: 'z'.repeat(60) },
        { path: 'c/CLAUDE.md', text: 'w' },
      ],
      120,
    );
    expect(third).toContain('### c/CLAUDE.md\n[left out: the instructions above used the 120 characters crew gives them]');
  });
});
