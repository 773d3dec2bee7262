import { expect, test } from '../support/fixtures';

// The shop runs under a Content-Security-Policy (packages/web-server/src/security-headers.ts);
// every journey fails on a violation (support/fixtures.ts). This file proves both halves.

test.describe('the content security policy', () => {
  test('is sent with the shop page and forbids framing and inline script', async ({ page }) => {
    const response = await page.goto('/');
    const policy = response!.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain('https://js.stripe.com');
    expect(policy).not.toContain("'unsafe-inline'");
    expect(response!.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response!.headers()['x-content-type-options']).toBe('nosniff');
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  });

  test("refuses an injected inline script, and the journeys' check sees it", async ({ page, cspViolations }) => {
    await page.goto('/');
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true;';
      document.body.append(script);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
    expect(cspViolations.join('\n')).toMatch(/script-src/);
    // Provoked on purpose: the fixture's check after the test must not fail this one.
    cspViolations.length = 0;
  });
});
