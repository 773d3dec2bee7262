import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import semver from 'semver';

/**
 * The packages every front end shares as Module Federation singletons (packages/web-server
 * rspack-config.ts): one copy per page, so a remote must work with the shell's copy.
 */
export const SINGLETON_PACKAGES = [
  'react',
  'react-dom',
  'react-router',
  'react-router-dom',
  'nanostores',
  '@nanostores/react',
  '@boatshop/state',
] as const;

export interface SingletonVersion {
  /** The range the app's package.json asks for (what MF's requiredVersion checks). */
  required: string;
  /** The version installed when it was built (the lock's choice). */
  built: string;
}

export type Singletons = Record<string, SingletonVersion>;

/** The installed package.json of a package, looked up the way Node does: node_modules upwards. */
function installedVersion(appDir: string, name: string): string | null {
  for (let dir = appDir; ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? null;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The shared singletons of the app in appDir: its package.json ranges and the installed versions.
 * react-router-dom is provided as react-router's version (the shop's router subset, see
 * rspack-config.ts reactRouterVersion), so it is recorded as that.
 */
export function readSingletons(appDir: string): Singletons {
  const pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const deps = pkg.dependencies ?? {};
  const result: Singletons = {};
  for (const name of SINGLETON_PACKAGES) {
    const required = deps[name];
    if (!required) continue;
    const built = installedVersion(appDir, name === 'react-router-dom' ? 'react-router' : name);
    if (built) result[name] = { required, built };
  }
  return result;
}

export interface CompatibilityProblem {
  package: string;
  message: string;
}

/**
 * Whether a remote built with `remote` can run inside the shell built with `shell`. Two checks
 * per singleton: the shell's copy satisfies the remote's range (the remote gets the shell's copy
 * at run time), and the version the remote was built and tested against satisfies the shell's
 * range (no remote built against another major line). The shell must share every singleton the
 * remote uses.
 */
export function compatibilityProblems(remote: Singletons, shell: Singletons, label = 'the release'): CompatibilityProblem[] {
  const problems: CompatibilityProblem[] = [];
  for (const [name, wanted] of Object.entries(remote)) {
    const provided = shell[name];
    if (!provided) {
      problems.push({ package: name, message: `${name}: the shell does not share it, ${label} needs ${wanted.required}` });
      continue;
    }
    if (!semver.valid(provided.built) || !semver.satisfies(provided.built, wanted.required, { includePrerelease: true })) {
      problems.push({
        package: name,
        message: `${name}: the shell provides ${provided.built}, ${label} requires ${wanted.required}`,
      });
    }
    if (!semver.valid(wanted.built) || !semver.satisfies(wanted.built, provided.required, { includePrerelease: true })) {
      problems.push({
        package: name,
        message: `${name}: ${label} was built against ${wanted.built}, the shell accepts ${provided.required}`,
      });
    }
  }
  return problems;
}
