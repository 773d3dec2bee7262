import { loadConfig, type Config, type SellerConfig } from '../../config.js';

// The seller every document names and the account it is paid to, as the running app was
// configured. The money paths (webhooks, confirmations, admin actions, jobs) issue documents deep
// inside their transactions, where the app's configuration is not at hand: the app registers them
// here when it starts.

export interface InvoiceBank {
  accountHolder: string;
  iban: string;
  bic: string;
}

export interface InvoiceParties {
  seller: SellerConfig;
  bank: InvoiceBank;
}

let registered: InvoiceParties | null = null;

function partiesOf(config: Pick<Config, 'seller' | 'deposits'>): InvoiceParties {
  const { bankAccountHolder, bankIban, bankBic } = config.deposits;
  return { seller: config.seller, bank: { accountHolder: bankAccountHolder, iban: bankIban, bic: bankBic } };
}

export function registerInvoiceSeller(config: Pick<Config, 'seller' | 'deposits'>): void {
  registered = partiesOf(config);
}

/** The registered parties; a process that built no app (a script) reads its own environment. */
export function invoiceParties(): InvoiceParties {
  registered ??= partiesOf(loadConfig());
  return registered;
}

export const invoiceSeller = (): SellerConfig => invoiceParties().seller;
