import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetPageData } from './page-data';
import resiliencePlugin, { fetchWithRetry } from './resilience-plugin';

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
