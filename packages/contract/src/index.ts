// @boatshop/contract: the API's shapes as TypeBox schemas (`…Schema`), their `Static<>` types
// (same names without `Schema`), the route table, and the shared constants. The API imports
// values from here; a front end imports only types from here (`import type`), its constants from
// `@boatshop/contract/constants` and its client from `@boatshop/contract/client`, so no TypeBox
// lands in a browser bundle unless a file deliberately imports a schema from
// `@boatshop/contract/schemas/<area>` to check a value with `Value.Check`.
export * from './constants.js';
export * from './paths.js';
export * from './routes.js';
export * from './schemas/admin-orders.js';
export * from './schemas/admin-products.js';
export * from './schemas/audit.js';
export * from './schemas/auth.js';
export * from './schemas/boat-specs.js';
export * from './schemas/cluster.js';
export * from './schemas/common.js';
export * from './schemas/leads.js';
export * from './schemas/ledger.js';
// ledger: reconciliation
export * from './schemas/reconciliation.js';
export * from './schemas/operations.js';
export * from './schemas/orders.js';
export * from './schemas/payments.js';
export * from './schemas/products.js';
export * from './schemas/pictures.js';
export * from './schemas/vat.js';
export * from './schemas/staff.js';
export * from './schemas/search.js';
export * from './schemas/privacy.js';
// offers
export * from './schemas/offers.js';
export * from './schemas/viewings.js';

// Other names for some shapes, as the front ends call them.
export type { OrderAction as AdminOrderAction, ActorType as OrderActorType } from './constants.js';
export type {
  BankTransferBody as BankTransferInput,
  CancelBody as CancelOrderInput,
  RefundBody as RefundOrderInput,
  ShipBody as ShipOrderInput,
} from './schemas/admin-orders.js';
export type { CreatePaymentBody as CreatePaymentRequest, QuoteBody as PaymentQuoteRequest } from './schemas/payments.js';
// books: invoices and credit notes
export * from './schemas/invoices.js';
// people: address book
export * from './schemas/addresses.js';
// find: keep and compare
export * from './schemas/keep.js';
