import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const runtime = vi.hoisted(() => ({ registerRemotes: vi.fn(), loadRemote: vi.fn() }));
vi.mock('@module-federation/enhanced/runtime', () => runtime);

const manifest = {
  mf_catalog: 'http://localhost:3001/mf-manifest.json',
  mf_admin: 'http://localhost:3004/mf-manifest.json',
};
const routes = {
  mf_catalog: [{ path: '/', module: './Home', access: 'public', layout: 'full-bleed' }],
  mf_admin: [{ path: '/admin', module: './Admin', access: 'admin', layout: 'dashboard' }],
};
// GET /remotes.json
const body = { remotes: manifest, routes };

// The registry keeps its state for the page's lifetime; each test gets a fresh module.
async function freshRegistry() {
  vi.resetModules();
  return import('./registry');
}

beforeEach(() => {
  runtime.loadRemote.mockResolvedValue({ default: () => null });
});

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  runtime.registerRemotes.mockReset();
  runtime.loadRemote.mockReset();
});

describe('remote registry', () => {
  it('registers a remote from /remotes.json only when one of its pages is first needed', async () => {
    const fetchMock = vi.fn().mockResolvedValue(Response.json(body));
    vi.stubGlobal('fetch', fetchMock);
    const { loadRemotePage } = await freshRegistry();

    await loadRemotePage('mf_catalog', 'Home');
    await loadRemotePage('mf_catalog', 'Search');

    expect(runtime.registerRemotes).toHaveBeenCalledTimes(1);
    expect(runtime.registerRemotes).toHaveBeenCalledWith([{ name: 'mf_catalog', entry: manifest.mf_catalog }]);
    expect(runtime.loadRemote.mock.calls.map(([id]) => id)).toEqual(['mf_catalog/Home', 'mf_catalog/Search']);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await loadRemotePage('mf_admin', 'Admin');
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith([{ name: 'mf_admin', entry: manifest.mf_admin }]);
  });

  it('asks for /remotes.json again after a failed attempt', async () => {
    const fetchMock = vi.fn().mockRejectedValueOnce(new TypeError('fetch failed')).mockResolvedValue(Response.json(body));
    vi.stubGlobal('fetch', fetchMock);
    const { loadRemotePage } = await freshRegistry();

    await expect(loadRemotePage('mf_catalog', 'Home')).rejects.toThrow('fetch failed');
    await expect(loadRemotePage('mf_catalog', 'Home')).resolves.toHaveProperty('default');

    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('fails clearly for a remote the manifest does not name or a module without a default export', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(Response.json(body)));
    const { loadRemotePage } = await freshRegistry();

    await expect(loadRemotePage('mf_account', 'Login')).rejects.toThrow('mf_account is missing from /remotes.json');

    runtime.loadRemote.mockResolvedValueOnce({});
    await expect(loadRemotePage('mf_catalog', 'Product')).rejects.toThrow('mf_catalog/Product has no default export');
  });

  it('takes the remotes the server wrote into the page instead of asking /remotes.json', async () => {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = 'boatshop-page-data';
    block.textContent = JSON.stringify({ remotes: manifest, routes, manifests: {} });
    document.body.append(block);
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { givenRoutes, loadRemotePage } = await freshRegistry();
    (await import('./page-data')).forgetPageData();

    // The router is built from the route data at once, before any remote is loaded.
    expect(givenRoutes()).toEqual({ routes, unavailable: [] });
    // React's StrictMode runs a state initializer twice: the second call gives the same data.
    expect(givenRoutes()).toEqual({ routes, unavailable: [] });
    await loadRemotePage('mf_catalog', 'Product');

    expect(runtime.registerRemotes).toHaveBeenCalledWith([{ name: 'mf_catalog', entry: manifest.mf_catalog }]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks /remotes.json for the route data when the page came without it, and refuses another shape', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(Response.json(body)));
    const { givenRoutes, loadRoutes } = await freshRegistry();
    (await import('./page-data')).forgetPageData();
    expect(givenRoutes()).toBeNull();
    expect(await loadRoutes()).toEqual({ routes, unavailable: [] });

    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(Response.json(manifest)));
    const fresh = await freshRegistry();
    await expect(fresh.loadRoutes()).rejects.toThrow('/remotes.json is not { remotes, routes }');
  });

  it('refuses a garbled route table, which the router could not be built from, so the page offers Retry instead of crashing', async () => {
    for (const garbled of [
      { ...body, routes: { mf_catalog: 'everything' } },
      { ...body, routes: { mf_catalog: [{ module: './Home' }] } },
      { ...body, routes: { mf_catalog: [{ path: '/', module: 7 }] } },
      { ...body, unavailable: 'mf_admin' },
    ]) {
      vi.stubGlobal('fetch', vi.fn().mockResolvedValue(Response.json(garbled)));
      const fresh = await freshRegistry();
      await expect(fresh.loadRoutes(), JSON.stringify(garbled)).rejects.toThrow('/remotes.json is not { remotes, routes }');
    }
    // A garbled data block in the page is not used either: /remotes.json is asked instead.
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = 'boatshop-page-data';
    block.textContent = JSON.stringify({ remotes: manifest, routes: { mf_catalog: [{ path: 42 }] }, manifests: {} });
    document.body.append(block);
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(Response.json(body)));
    const fresh = await freshRegistry();
    (await import('./page-data')).forgetPageData();
    expect(fresh.givenRoutes()).toBeNull();
    expect(await fresh.loadRoutes()).toEqual({ routes, unavailable: [] });
  });

  it('names the remotes whose pages the server does not know, and asks the server again on request', async () => {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = 'boatshop-page-data';
    const { mf_admin: _admin, ...known } = routes;
    block.textContent = JSON.stringify({ remotes: manifest, routes: known, unavailable: ['mf_admin'], manifests: {} });
    document.body.append(block);
    const fetchMock = vi.fn().mockResolvedValue(Response.json({ ...body, unavailable: [] }));
    vi.stubGlobal('fetch', fetchMock);
    const { askRoutesAgain, givenRoutes, loadRemotePage } = await freshRegistry();
    (await import('./page-data')).forgetPageData();

    expect(givenRoutes()).toEqual({ routes: known, unavailable: ['mf_admin'] });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(await askRoutesAgain()).toEqual({ routes, unavailable: [] });
    expect(fetchMock).toHaveBeenCalledWith('/remotes.json', { cache: 'no-cache' });
    // Remotes are registered from the newer answer.
    await loadRemotePage('mf_admin', 'Admin');
    expect(runtime.registerRemotes).toHaveBeenCalledWith([{ name: 'mf_admin', entry: manifest.mf_admin }]);
  });
});
