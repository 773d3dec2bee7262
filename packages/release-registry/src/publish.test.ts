import { afterAll, describe, expect, it } from 'vitest';
import { RegistryError } from './errors';
import { publishRelease } from './publish';
import { promote } from './registry';
import { fakeDist, removeTemporaryFolders, SHELL, STORE_KINDS, tempStore } from './test-helpers';
import type { RegistryStore } from './types';

afterAll(removeTemporaryFolders);

const env = 'production';

async function release(store: RegistryStore, remote: string, version: string, routes: unknown) {
  return publishRelease(store, {
    remote,
    distDir: await fakeDist(`${remote}@${version}`, { 'routes.json': JSON.stringify(routes) }),
    version,
    commit: null,
    builtAt: new Date().toISOString(),
    singletons: SHELL,
  });
}

const file = (remote: string, paths: string[]) => ({
  schema: 1,
  remote,
  routes: paths.map((path) => ({ path, module: './Page', access: 'public', layout: 'main' })),
});

async function refusal(promise: Promise<unknown>): Promise<RegistryError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof RegistryError)) throw new Error(`expected a RegistryError, got ${String(error)}`);
  return error;
}

describe.each(STORE_KINDS)('route data at release time (%s store)', (kind) => {
  it('refuses a release whose routes collide with a live or canary release of another remote, naming path, remote, release, environment', async () => {
    const store = await tempStore(kind);
    const cart = (await release(store, 'mf-cart-checkout', '1.0.0', file('mf_cart_checkout', ['/cart']))).record;
    await promote(store, { environment: env, remote: 'mf-cart-checkout', version: '1.0.0', shellSingletons: SHELL });
    const admin = (
      await release(store, 'mf-admin', '1.0.0', {
        ...file('mf_admin', []),
        routes: [{ path: '/admin/*', access: 'admin', layout: 'dashboard' }],
      })
    ).record;
    await promote(store, { environment: 'staging', remote: 'mf-admin', version: '1.0.0', shellSingletons: SHELL });
    const releasesBefore = await store.releases('mf-catalog');

    const error = await refusal(release(store, 'mf-catalog', '2.0.0', file('mf_catalog', ['/', '/CART', '/admin/boats'])));
    expect(error.code).toBe('ROUTE_COLLISION');
    expect(error.message).toContain('mf-catalog 2.0.0 claims paths that other remotes serve; nothing was published');
    expect(error.message).toContain(`/CART: /cart is served by mf-cart-checkout ${cart.id} (live in production)`);
    expect(error.message).toContain(`/admin/boats: /admin/* is served by mf-admin ${admin.id} (live in staging)`);
    expect(await store.releases('mf-catalog')).toEqual(releasesBefore);

    // Its own paths, or a remote's paths that nothing live claims, are no collision.
    await release(store, 'mf-catalog', '2.0.1', file('mf_catalog', ['/', '/regattas']));
    await release(store, 'mf-cart-checkout', '1.1.0', file('mf_cart_checkout', ['/cart', '/wishlist']));
  });

  it('refuses malformed route data or route data of another remote, and publishes nothing', async () => {
    const store = await tempStore(kind);
    const invalid = await refusal(
      release(store, 'mf-catalog', '1.0.0', {
        schema: 1,
        remote: 'mf_catalog',
        routes: [{ path: '/x', module: './X', access: 'everyone', layout: 'main' }],
      }),
    );
    expect(invalid.code).toBe('INVALID_INPUT');
    expect(invalid.message).toContain('is not valid route data; nothing was published');
    expect(invalid.message).toContain('unknown access "everyone"');
    const other = await refusal(release(store, 'mf-catalog', '1.0.0', file('mf_admin', ['/x'])));
    expect(other.message).toContain('routes.json is for mf_admin, not mf_catalog');
    expect(await store.releases('mf-catalog')).toEqual([]);
  });
});
