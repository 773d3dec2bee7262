// No source file passes 400 lines: a file that long does several jobs, and a newcomer reads it
// whole to find one. Data and generated files are the exceptions, each named below with why. Run
// by the `lint` stage of `npm test`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const MAX_LINES = 400;

/** Code, styles, markup and scripts; not prose (Markdown) nor data (JSON, YAML, lock files). */
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|css|scss|html|sh|sql|py)$|(^|\/)Dockerfile$/;

/** Data and generated files, which may be as long as what they hold. */
const DATA_OR_GENERATED: Readonly<Record<string, string>> = {
  'api/src/db/seed/demo-products.ts': 'the demo catalogue: product records, no logic',
};

/**
 * Files over the limit that their owners are splitting in work under way. Each leaves this list
 * when it is split; the test fails when one is listed but no longer over the limit, so the list
 * only shrinks.
 */
const SPLIT_UNDER_WAY: Readonly<Record<string, string>> = {};

export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** `file (n lines)` for each source file over the limit that no list excuses. */
export function overLimit(files: readonly { path: string; text: string }[], excused: ReadonlySet<string>): string[] {
  return files
    .filter((file) => SOURCE.test(file.path) && !excused.has(file.path))
    .map((file) => ({ path: file.path, lines: lineCount(file.text) }))
    .filter((file) => file.lines > MAX_LINES)
    .map((file) => `${file.path} (${file.lines} lines)`);
}

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((path) => path && existsSync(join(ROOT, path)));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('file length', () => {
  it('counts lines as an editor numbers them, and names each source file over the limit', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    const long = 'x\n'.repeat(MAX_LINES + 1);
    const files = [
      { path: 'api/src/long.ts', text: long },
      { path: 'shell/src/ok.tsx', text: 'x\n'.repeat(MAX_LINES) },
      { path: 'docs/long.md', text: long },
      { path: 'data/long.json', text: long },
      { path: 'api/src/seed.ts', text: long },
    ];
    expect(overLimit(files, new Set(['api/src/seed.ts']))).toEqual([`api/src/long.ts (${MAX_LINES + 1} lines)`]);
  });

  it(`no tracked source file passes ${MAX_LINES} lines but the listed data and generated files`, () => {
    const excused = new Set([...Object.keys(DATA_OR_GENERATED), ...Object.keys(SPLIT_UNDER_WAY)]);
    const files = tracked.filter((path) => SOURCE.test(path)).map((path) => ({ path, text: read(path) }));
    expect(overLimit(files, excused)).toEqual([]);
  });

  it('lists only files that exist, and a file split under way only while it is still over the limit', () => {
    const listed = [...Object.keys(DATA_OR_GENERATED), ...Object.keys(SPLIT_UNDER_WAY)];
    expect(listed.filter((path) => !tracked.includes(path))).toEqual([]);
    const splitAlready = Object.keys(SPLIT_UNDER_WAY).filter((path) => lineCount(read(path)) <= MAX_LINES);
    expect(splitAlready).toEqual([]);
  });
});
