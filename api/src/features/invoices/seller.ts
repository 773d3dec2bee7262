import { loadConfig, type SellerConfig } from '../../config.js';

// The seller every document names, as the running app was configured with it. The money paths
// (webhooks, confirmations, admin actions, jobs) issue documents deep inside their transactions,
// where the app's configuration is not at hand: the app registers its seller here when it starts.

let registered: SellerConfig | null = null;

export function registerInvoiceSeller(seller: SellerConfig): void {
  registered = seller;
}

/** The registered seller; a process that built no app (a script) reads its own environment. */
export function invoiceSeller(): SellerConfig {
  registered ??= loadConfig().seller;
  return registered;
}
