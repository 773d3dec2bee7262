import type { Kysely, Transaction } from 'kysely';
import type { AuditLogTable } from '../features/audit/audit.table.js';
import type { AuthAttemptsTable } from '../features/auth/auth-attempts.table.js';
import type { EmailVerificationTokensTable } from '../features/auth/email-verification-tokens.table.js';
import type { PasswordResetTokensTable } from '../features/auth/password-reset-tokens.table.js';
import type {
  OrderEventsTable,
  OrderItemsTable,
  OrderPaymentsTable,
  OrderRefundsTable,
  OrdersTable,
} from '../features/orders/orders.table.js';
import type { LeadEventsTable, LeadMessagesTable, LeadNotesTable, LeadsTable } from '../features/leads/leads.table.js';
import type { OrderLedgerEntriesTable, ReconciliationAlertsTable } from '../features/ledger/ledger.table.js';
import type { OutboxTable } from '../features/outbox/outbox.table.js';
import type { PaymentEventsTable } from '../features/payments/payment-events.table.js';
import type { UnmatchedPaymentsTable } from '../features/payments/unmatched-payments.table.js';
import type { ProductsTable } from '../features/products/products.table.js';
import type { ProductPicturesTable } from '../features/pictures/pictures.table.js';
import type { SessionsTable } from '../features/sessions/sessions.table.js';
import type { InvoiceCountersTable, InvoiceDocumentsTable, InvoicesTable } from '../features/invoices/invoices.table.js';
import type {
  OrderVatColumns,
  ProductVatColumns,
  VatBuyerChecksTable,
  VatCorrectionRefundsTable,
  VatCorrectionsTable,
  VatRatesTable,
} from '../features/vat/vat.table.js';
import type { StaffInvitationsTable } from '../features/staff/staff.table.js';
import type { ExternalIdentitiesTable } from '../features/users/external-identities.table.js';
import type { UsersTable } from '../features/users/users.table.js';
import type { ConsentsTable, PrivacyRequestsTable } from '../features/privacy/privacy.table.js';
// offers
import type { OffersTable, OrderOfferColumns } from '../features/offers/offers.table.js';
import type { ViewingExceptionsTable, ViewingLocationsTable, ViewingsTable } from '../features/viewings/viewings.table.js';
import type { SavedAddressesTable } from '../features/addresses/saved-addresses.table.js';
import type { FavouritesTable, SavedSearchesTable } from '../features/keep/keep.table.js';
import type { SearchFacetCellsTable } from '../features/search/search-facet-cells.table.js';

// Each feature owns its table type; this only combines them. Add new tables here.
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  products: ProductsTable & ProductVatColumns;
  orders: OrdersTable & OrderVatColumns & OrderOfferColumns;
  order_items: OrderItemsTable;
  order_events: OrderEventsTable;
  order_payments: OrderPaymentsTable;
  order_refunds: OrderRefundsTable;
  order_ledger_entries: OrderLedgerEntriesTable;
  reconciliation_alerts: ReconciliationAlertsTable;
  payment_events: PaymentEventsTable;
  unmatched_payments: UnmatchedPaymentsTable;
  outbox: OutboxTable;
  password_reset_tokens: PasswordResetTokensTable;
  external_identities: ExternalIdentitiesTable;
  auth_attempts: AuthAttemptsTable;
  email_verification_tokens: EmailVerificationTokensTable;
  vat_rates: VatRatesTable;
  vat_buyer_checks: VatBuyerChecksTable;
  vat_corrections: VatCorrectionsTable;
  vat_correction_refunds: VatCorrectionRefundsTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  invoice_documents: InvoiceDocumentsTable;
  leads: LeadsTable;
  lead_messages: LeadMessagesTable;
  lead_notes: LeadNotesTable;
  lead_events: LeadEventsTable;
  staff_invitations: StaffInvitationsTable;
  audit_log: AuditLogTable;
  // people: a shopper's export and erasure requests and consents
  privacy_requests: PrivacyRequestsTable;
  consents: ConsentsTable;
  // offers
  offers: OffersTable;
  viewing_locations: ViewingLocationsTable;
  viewing_exceptions: ViewingExceptionsTable;
  viewings: ViewingsTable;
  // people: address book
  saved_addresses: SavedAddressesTable;
  // find: keep and compare
  favourites: FavouritesTable;
  saved_searches: SavedSearchesTable;
  // search: the list facets' counts, kept by triggers
  search_facet_cells: SearchFacetCellsTable;
  // find: a boat's pictures
  product_pictures: ProductPicturesTable;
}

/** The database or an open transaction: what every repository function takes first. */
export type Db = Kysely<Database> | Transaction<Database>;
