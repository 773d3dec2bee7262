// Every repository path named in a comment or a Markdown file exists, so a rename cannot leave a
// reader following a name that leads nowhere. Run by the `lint` stage of `npm test`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const SOURCE = /\.(ts|tsx|mts|js|mjs|cjs)$/;
/** A word that may name a file or folder. */
const PATH_LIKE = /^(?:\.{1,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\/?$/;
const EXTENSION = /\.(ts|tsx|mts|js|mjs|cjs|json|md|css|ya?ml|sh|conf|html|txt|sql)$/;
/** Build output, installed packages and local data: named in prose, never tracked. */
const UNTRACKED_SEGMENT = /^(dist|node_modules|\.data|\.releases|coverage|test-results|playwright-report)$/;

/** The words of a comment or Markdown file that may be paths: code spans, link targets and bare words. */
export function candidatePaths(text: string): string[] {
  const words = new Set<string>();
  for (const match of text.matchAll(/`([^`\n]+)`|\]\(([^)\s]+)\)|([\w@./-]+)/g)) {
    const raw = (match[1] ?? match[2] ?? match[3] ?? '').trim();
    // `file.ts:12` names a line; `#anchor` a heading.
    const word = raw
      .replace(/(:\d+)+$/, '')
      .replace(/#.*$/, '')
      .replace(/[.,;:]+$/, '');
    if (!word || word.includes('://') || word.startsWith('/') || word.startsWith('@') || !PATH_LIKE.test(word)) continue;
    if (
      word
        .replace(/^\.{1,2}\//, '')
        .split('/')
        .some((segment) => UNTRACKED_SEGMENT.test(segment))
    )
      continue;
    // A path has a folder and a file name with an extension, or at least three folders ending in a
    // slash; a bare file or folder name is often build output or prose, so it is left alone.
    const folders = word.replace(/\/$/, '').split('/').length;
    if ((folders > 1 && EXTENSION.test(word)) || (folders > 2 && word.endsWith('/'))) words.add(word);
  }
  return [...words];
}

/** The comments of a source file, read through TypeScript's scanner of the parsed file (strings and regexes are not comments). */
export function commentsOf(file: string, text: string): string[] {
  const kind = /\.[mc]?jsx?$/.test(file) ? ts.ScriptKind.JS : file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Map<number, string>();
  const collect = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  // A shebang is no comment.
  return [...seen.values()].filter((comment) => !comment.startsWith('#!'));
}

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
const trackedSet = new Set(tracked);
const trackedFolders = new Set(
  tracked.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const trackedPaths = [...trackedSet, ...trackedFolders];

function exists(path: string): boolean {
  const clean = path.replace(/\/$/, '');
  return trackedSet.has(clean) || trackedFolders.has(clean) || existsSync(join(ROOT, clean));
}

/**
 * Whether `word`, named in `file`, is a path of the repository: relative to the file's folder
 * when it starts with a dot, else the end of a tracked path (each remote's `src/routes.ts`, or the
 * API's `features/` folders in its README).
 */
function resolves(file: string, word: string): boolean {
  if (word.startsWith('.')) return exists(join(dirname(file), word));
  const clean = word.replace(/\/$/, '');
  return exists(clean) || trackedPaths.some((path) => path.endsWith(`/${clean}`));
}

/** `file: word` for every path named in the file's comments (or its text, for Markdown) that does not exist. */
export function missingPaths(file: string, text: string): string[] {
  const texts = file.endsWith('.md') ? [text.replace(/```[\s\S]*?```/g, '')] : commentsOf(file, text);
  return texts
    .flatMap((part) => candidatePaths(part))
    .filter((word) => !resolves(file, word))
    .map((word) => `${file}: ${word}`);
}

describe('paths named in comments and Markdown', () => {
  it('finds code spans, links and path-like words, leaving URLs, routes, packages and build output alone', () => {
    expect(
      candidatePaths(
        'See `packages/web-server/src/server.ts:12`, [the API](api/README.md#run), packages/contract/src/ and scripts/start.mjs; ' +
          'not https://x.test/a.js, `/api/products`, `@scope/pkg/dist/a.cjs`, `shell/dist/main.js` or a b/c word.',
      ),
    ).toEqual(['packages/web-server/src/server.ts', 'api/README.md', 'packages/contract/src/', 'scripts/start.mjs']);
  });

  it('reads comments only, not strings or regular expressions', () => {
    const text = "const url = '// not/a/comment.ts';\nconst re = /\\/\\/x\\.ts/;\n// a/real/comment.ts\n/* block/one.ts */ const x = 1;\n";
    expect(commentsOf('x.ts', text)).toEqual(['// a/real/comment.ts', '/* block/one.ts */']);
  });

  it('reports a path that does not exist, and accepts one relative to the file or ending a tracked path', () => {
    expect(
      missingPaths(
        'packages/web-server/src/x.ts',
        '// see ./server.ts, ../package.json, web-server/src/ports.ts, e2e/smoke/gone.smoke.ts and ./gone.ts\n',
      ),
    ).toEqual(['packages/web-server/src/x.ts: e2e/smoke/gone.smoke.ts', 'packages/web-server/src/x.ts: ./gone.ts']);
  });

  it('every tracked comment and Markdown file names only paths that exist', () => {
    const problems = tracked
      // A changelog names files as they were when it was written.
      .filter((file) => (SOURCE.test(file) || file.endsWith('.md')) && !/(^|\/)CHANGELOG\.md$/.test(file) && existsSync(join(ROOT, file)))
      .flatMap((file) => missingPaths(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(problems).toEqual([]);
  });
});
