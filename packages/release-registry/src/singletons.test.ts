import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compatibilityProblems, readSingletons, type Singletons } from './singletons';

const ROOT = resolve(import.meta.dirname, '../../..');
const APPS = ['shell', 'mf-catalog', 'mf-cart-checkout', 'mf-account', 'mf-admin'];

describe('the shared core as a singleton', () => {
  it.each(APPS)('%s declares a real semver range for @boatshop/state, which the installed core satisfies', (app) => {
    const core = readSingletons(join(ROOT, app))['@boatshop/state'];
    expect(core?.required).toMatch(/^\^\d+\.\d+\.\d+$/);
    expect(core?.built).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('every remote of this commit fits this commit’s shell', () => {
    const shell = readSingletons(join(ROOT, 'shell'));
    for (const app of APPS.slice(1)) expect(compatibilityProblems(readSingletons(join(ROOT, app)), shell, app)).toEqual([]);
  });

  const shellWith = (built: string, required = '^1.0.0'): Singletons => ({ '@boatshop/state': { required, built } });
  const remoteWith = (built: string, required = '^1.0.0'): Singletons => ({ '@boatshop/state': { required, built } });

  it('a remote built against another minor of the same major runs with the shell’s copy', () => {
    expect(compatibilityProblems(remoteWith('1.0.0'), shellWith('1.2.0'))).toEqual([]);
    expect(compatibilityProblems(remoteWith('1.2.0', '^1.2.0'), shellWith('1.2.3'))).toEqual([]);
  });

  it('a remote that needs a newer minor, or another major, is refused with the reason', () => {
    expect(compatibilityProblems(remoteWith('1.3.0', '^1.3.0'), shellWith('1.2.0'), 'mf-account 2.0.0')).toEqual([
      { package: '@boatshop/state', message: '@boatshop/state: the shell provides 1.2.0, mf-account 2.0.0 requires ^1.3.0' },
    ]);
    expect(compatibilityProblems(remoteWith('2.0.0', '^2.0.0'), shellWith('1.2.0'), 'mf-account 2.0.0')).toEqual([
      { package: '@boatshop/state', message: '@boatshop/state: the shell provides 1.2.0, mf-account 2.0.0 requires ^2.0.0' },
      { package: '@boatshop/state', message: '@boatshop/state: mf-account 2.0.0 was built against 2.0.0, the shell accepts ^1.0.0' },
    ]);
  });
});
