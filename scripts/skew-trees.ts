// The previous release's tree for the version-skew stage (scripts/test-skew.ts): the releases
// recorded in release-tags.txt, and node_modules for an exported tree linked to this checkout's
// when its lock file names the same packages.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** release-tags.txt: `release/<date> <commit>` a line, newest last (`#` starts a comment). */
export function recordedReleases(root: string): { ref: string; commit: string }[] {
  const file = join(root, 'release-tags.txt');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((line) => line.split(/\s+/))
    .filter((parts): parts is [string, string] => parts.length === 2 && /^[0-9a-f]{40}$/.test(parts[1]!))
    .map(([ref, commit]) => ({ ref: `${ref} (release-tags.txt)`, commit }));
}

/** Whether `commit` is in the history of the checkout at `root`. */
export function isAncestorOfHead(root: string, commit: string): boolean {
  return spawnSync('git', ['merge-base', '--is-ancestor', commit, 'HEAD'], { cwd: root }).status === 0;
}

export type Lock = { packages: Record<string, { version?: string; link?: boolean; resolved?: string; optional?: boolean }> };
export const readLock = (dir: string) => JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as Lock;

/** External packages the other tree's lock names that are not installed here at the same version. */
export function missingPackages(root: string, other: Lock, here: Lock): string[] {
  return (
    Object.entries(other.packages)
      .filter(([key, entry]) => key.includes('node_modules/') && !entry.link)
      // Optional packages of other platforms are in every lock file and installed nowhere but there.
      .filter(([key, entry]) => here.packages[key]?.version !== entry.version || (!entry.optional && !existsSync(join(root, key))))
      .map(([key, entry]) => `${key}@${entry.version}`)
  );
}

/**
 * node_modules for another tree: each package of this checkout's node_modules linked (absolute),
 * except the workspaces, which link to that tree's own folders (its lock file says where), and
 * each workspace's own node_modules linked to this checkout's.
 */
export function linkNodeModules(root: string, tree: string): void {
  const target = join(tree, 'node_modules');
  mkdirSync(target, { recursive: true });
  const lock = readLock(tree);
  const workspaces = Object.entries(lock.packages).filter(
    ([key, entry]) => key.startsWith('node_modules/') && entry.link && entry.resolved,
  );
  const own = new Set(workspaces.map(([key]) => key.slice('node_modules/'.length)));
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name.startsWith('@')) {
      mkdirSync(join(target, name), { recursive: true });
      for (const child of readdirSync(join(root, 'node_modules', name))) {
        if (!own.has(`${name}/${child}`)) symlinkSync(join(root, 'node_modules', name, child), join(target, name, child));
      }
    } else if (!own.has(name)) {
      symlinkSync(join(root, 'node_modules', name), join(target, name));
    }
  }
  for (const [key, entry] of workspaces) {
    const link = join(tree, key);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(relative(dirname(link), join(tree, entry.resolved!)), link);
  }
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === '' || key.includes('node_modules/') || entry.link) continue;
    const local = join(root, key, 'node_modules');
    if (existsSync(local) && existsSync(join(tree, key)) && !existsSync(join(tree, key, 'node_modules'))) {
      symlinkSync(local, join(tree, key, 'node_modules'));
    }
  }
}
