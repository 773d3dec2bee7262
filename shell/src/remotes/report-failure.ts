/**
 * Tells the shop's server that a remote failed for this visitor: it did not load, or its error
 * boundary caught an error. Only the MF name is sent (no URL, message or user); the server knows
 * which release the visitor's canary cookie gives them, and withdraws a canary that fails clearly
 * more often than the live release (packages/web-server/src/registry.ts). Without a release
 * registry the server answers 404, which is fine: the report is fire-and-forget.
 */
export function reportRemoteFailure(remote: string): void {
  try {
    if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return;
    navigator.sendBeacon('/remote-failures', new Blob([JSON.stringify({ remote })], { type: 'application/json' }));
  } catch {
    // Reporting never breaks the page.
  }
}
