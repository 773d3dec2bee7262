import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetPageData } from './page-data';
import resiliencePlugin, { checkRuntime, fetchWithRetry } from './resilience-plugin';

afterEach(() => {
  document.body.innerHTML = '';
  forgetPageData();
  vi.unstubAllGlobals();
});

describe('fetchWithRetry', () => {
  it('tries again after a network failure and a 5xx, and returns the answer that came', async () => {
    const fetchMock = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('fetch failed'))
      .mockResolvedValueOnce(new Response('', { status: 503 }))
      .mockResolvedValueOnce(Response.json({ name: 'mf_catalog' }));
    vi.stubGlobal('fetch', fetchMock);

    const response = await fetchWithRetry('http://localhost:3001/mf-manifest.json', {}, [0, 0]);

    expect(await response.json()).toEqual({ name: 'mf_catalog' });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('gives up after the last delay with the last failure', async () => {
    const fetchMock = vi.fn().mockRejectedValue(new TypeError('fetch failed'));
    vi.stubGlobal('fetch', fetchMock);

    await expect(fetchWithRetry('http://localhost:3001/mf-manifest.json', {}, [0, 0])).rejects.toThrow('fetch failed');
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('does not repeat a 404: the remote is there and says no', async () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response('', { status: 404 }));
    vi.stubGlobal('fetch', fetchMock);

    expect((await fetchWithRetry('http://localhost:3001/mf-manifest.json', {}, [0, 0])).status).toBe(404);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('resilience plugin fetch', () => {
  it("answers the manifest the page came with once, then asks the remote's server", async () => {
    const url = 'http://localhost:3001/mf-manifest.json';
    document.body.innerHTML = `<script type="application/json" id="boatshop-page-data">${JSON.stringify({ remotes: {}, manifests: { [url]: { name: 'mf_catalog', release: 'given' } } })}</script>`;
    const fetchMock = vi.fn().mockResolvedValue(Response.json({ name: 'mf_catalog', release: 'fetched' }));
    vi.stubGlobal('fetch', fetchMock);
    const { fetch: fetchHook } = resiliencePlugin();

    const first = (await fetchHook!(url, {})) as Response;
    const second = (await fetchHook!(url, {})) as Response;

    expect(await first.json()).toEqual({ name: 'mf_catalog', release: 'given' });
    expect(await second.json()).toEqual({ name: 'mf_catalog', release: 'fetched' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('checkRuntime', () => {
  const manifest = (pluginVersion?: string) => ({ name: 'mf_catalog', metaData: { pluginVersion } });

  it('lets a remote built with the same MF major.minor through', () => {
    expect(() => checkRuntime(manifest('2.9.2'), '2.9.2')).not.toThrow();
    expect(() => checkRuntime(manifest('2.9.0'), '2.9.7')).not.toThrow();
  });

  it('refuses a remote built with another MF minor or major, or an unknown one', () => {
    expect(() => checkRuntime(manifest('2.10.0'), '2.9.2')).toThrow(/mf_catalog was built with Module Federation 2\.10\.0.*~2\.9/);
    expect(() => checkRuntime(manifest('3.9.2'), '2.9.2')).toThrow();
    expect(() => checkRuntime(manifest(undefined), '2.9.2')).toThrow(/\(unknown\)/);
  });

  it('checks nothing in a development build, where every remote brings its own runtime', () => {
    expect(() => checkRuntime(manifest('1.0.0'), '')).not.toThrow();
  });
});
