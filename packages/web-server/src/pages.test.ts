import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchPage } from './pages';

// pages.ts mirrors the shell's routes; a route added there and not here would be served with
// status 404 and noindex while the app shows the page.
const SHELL_ROUTES = readFileSync(new URL('../../../shell/src/routes.tsx', import.meta.url), 'utf8');

describe('the server route table', () => {
  it("knows every path of the shell's router", () => {
    const paths = [...SHELL_ROUTES.matchAll(/path: '([^']+)'/g)].map((m) => m[1]!).filter((path) => path !== '*');
    expect(paths.length).toBeGreaterThan(5);
    for (const path of paths) {
      const example = `/${path.replace(/:filterType/, 'yachts').replace(/:[A-Za-z]+/g, '42')}`;
      expect(matchPage(example, new URLSearchParams()).kind, example).not.toBe('not-found');
    }
  });
});
