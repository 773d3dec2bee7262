// Types of the API's JSON bodies, shared by every front end. The API declares the same shapes
// as TypeBox schemas; keep the two in step (docs/ARCHITECTURE.md is the reference).

export const CATEGORIES = ['sailing-boats', 'yachts'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Product {
  id: string;
  name: string;
  thumbnailUrl: string;
  /** integer euro cents */
  priceCents: number;
  /** sanitised on the server; sanitise again before injecting */
  descriptionHtml: string;
  category: Category;
  /** ISO 8601 */
  createdAt: string;
  /** units a shopper can buy now (on hand minus those held by open orders); null = built to order, unlimited */
  stock: number | null;
  /** `reserved`: none free but some held by open orders; `sold_out`: none left at all */
  availability: Availability;
}

export type Availability = 'in_stock' | 'reserved' | 'sold_out';

/** At or below this many units left, shoppers are told how many ("Only 2 left"). */
export const FEW_LEFT = 3;

export interface ProductPage {
  data: Product[];
  cursor: string | null;
  isLastPage: boolean;
}

export interface ProductInput {
  name: string;
  thumbnailUrl: string;
  priceCents: number;
  descriptionHtml: string;
  category: Category;
  /** units free to buy, 0 or more; null = built to order. Left out on update: unchanged. */
  stock?: number | null;
}

export interface SessionUser {
  id: string;
  displayName: string;
  email: string;
  userRoles: string[];
  /** false until the link in the sign-up e-mail (or a password reset, or the provider) proved the address */
  emailVerified: boolean;
  /**
   * false for an account that signs in only through the provider: the dashboard offers "Set a
   * password" by e-mail instead of the change form. Absent (an older API) counts as true.
   */
  hasPassword?: boolean;
}

export interface Address {
  line1: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
}

export interface NamedAddress {
  name: string;
  address: Address;
}

export const ORDER_STATUSES = [
  'pending',
  'reserved',
  'paid',
  'shipped',
  'delivered',
  'cancelled',
  'refunded',
  'partially_refunded',
  'disputed',
  'expired',
  'failed',
] as const;
/**
 * An order's state (issues 12 and 13); `failed` is a declined payment, `expired` a pending order
 * that timed out, `reserved` a deposit paid by card with the balance due by bank transfer.
 */
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface OrderSummary {
  id: string;
  createdAt: string;
  totalCents: number;
  status: OrderStatus;
}

export interface OrderItem {
  productId: string | null;
  name: string;
  thumbnailUrl: string;
  unitPriceCents: number;
  quantity: number;
}

/** One step of an order's life as the shopper sees it: no admin ids or names. */
export interface OrderTimelineEntry {
  status: OrderStatus;
  at: string;
  /** cents that moved with this step (a refund), else null */
  amountCents: number | null;
  note: string | null;
}

/** What the shopper still has to transfer for a reserved order, and where to (issue 13). */
export interface OrderBalance {
  amountCents: number;
  /** YYYY-MM-DD */
  dueOn: string;
  /** ISO 11649 creditor reference, `RF…`, to quote with the transfer */
  reference: string;
  accountHolder: string;
  iban: string;
  bic: string;
  overdue: boolean;
}

export interface Order extends OrderSummary {
  paidAt: string | null;
  /** confirmed payments so far (card and bank transfers) */
  paidCents: number;
  /** the deposit paid by card for a reserved order; null when paid in full */
  depositCents: number | null;
  /** null unless the order is reserved */
  balance: OrderBalance | null;
  items: OrderItem[];
  shipping: NamedAddress;
  billing: NamedAddress;
  refundedCents: number;
  carrier: string | null;
  trackingNumber: string | null;
  /** in the order the API sends; pages sort by `at` */
  timeline: OrderTimelineEntry[];
}

// Admin order operations (GET/POST /api/admin/orders…, docs/ARCHITECTURE.md).

export type AdminOrderAction = 'ship' | 'deliver' | 'cancel' | 'refund' | 'record_transfer';

export interface AdminOrderSummary {
  id: string;
  createdAt: string;
  status: OrderStatus;
  totalCents: number;
  refundedCents: number;
  itemCount: number;
  customer: { id: string; email: string; displayName: string };
  /** what is still to be paid (a reserved order's balance); 0 when nothing is due */
  balanceDueCents: number;
  /** a reserved order whose balance is past its due date */
  overdue: boolean;
}

export interface AdminOrderPage {
  data: AdminOrderSummary[];
  cursor: string | null;
  isLastPage: boolean;
}

export interface PaymentLine {
  id: string;
  method: 'card' | 'bank_transfer';
  amountCents: number;
  providerReference: string | null;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  createdAt: string;
  confirmedAt: string | null;
  /** bank transfers: the day (YYYY-MM-DD) the bank received it; absent from an API before issue 13 */
  receivedOn?: string | null;
}

export type OrderActorType = 'admin' | 'shopper' | 'provider' | 'system';

export interface Refund {
  id: string;
  amountCents: number;
  reason: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  providerReference: string | null;
  createdAt: string;
  createdBy: { type: OrderActorType; id: string | null; name: string | null } | null;
}

export interface OrderEvent {
  id: string;
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  at: string;
  actor: { type: OrderActorType; id: string | null; name: string | null };
  amountCents: number | null;
  note: string | null;
}

export interface AdminOrder extends AdminOrderSummary {
  paidAt: string | null;
  items: OrderItem[];
  shipping: NamedAddress;
  billing: NamedAddress;
  payments: PaymentLine[];
  refunds: Refund[];
  /** in the order the API sends; pages sort by `at` */
  events: OrderEvent[];
  refundableCents: number;
  allowedActions: AdminOrderAction[];
  carrier: string | null;
  trackingNumber: string | null;
  /** the ISO 11649 `RF…` reference a bank transfer quotes; null unless a deposit order */
  paymentReference: string | null;
  /** YYYY-MM-DD; null unless a deposit order */
  balanceDueOn: string | null;
  depositCents: number | null;
}

/** Filters of GET /api/admin/orders: a state, and `overdue=true` for reserved orders past their due date. */
export interface AdminOrderQuery {
  status?: OrderStatus;
  overdue?: boolean;
  q?: string;
}

export interface ShipOrderInput {
  carrier?: string;
  trackingNumber?: string;
}

/** Cancelling a reserved order says what happens to its deposit; required then, ignored otherwise. */
export type DepositChoice = 'refund' | 'keep';

export interface CancelOrderInput {
  reason?: string;
  deposit?: DepositChoice;
}

/** POST /api/admin/bank-transfers: a transfer received on the shop's account. */
export interface BankTransferInput {
  /** the order's `RF…` reference, as quoted with the transfer */
  reference: string;
  amountCents: number;
  /** YYYY-MM-DD */
  receivedOn: string;
  /** the bank's own reference of the transfer; the same one twice records once */
  bankReference: string;
}

export interface RefundOrderInput {
  amountCents: number;
  reason?: string;
  idempotencyKey: string;
}

/** Money the provider reported without an order to match it (GET /api/admin/unmatched-payments). */
export interface UnmatchedPayment {
  id: string;
  providerReference: string;
  amountCents: number;
  currency: string;
  reason: string;
  receivedAt: string;
  resolvedAt: string | null;
}

export interface PaymentConfig {
  provider: 'stripe' | 'local';
  publishableKey: string;
  localApiBase?: string;
}

/** `full`: the card pays the total; `deposit`: the card pays the deposit, the balance comes by bank transfer. */
export type PaymentMode = 'full' | 'deposit';

export interface PaymentQuoteRequest {
  items: { productId: string; quantity: number }[];
}

/** POST /api/payments/quote: how a cart can be paid (issue 13). */
export interface PaymentQuote {
  totalCents: number;
  cardLimitCents: number;
  /** a deposit may be chosen (required, or the shop offers it for a category in the cart) */
  depositOffered: boolean;
  /** the total is above the card limit: only a deposit is possible */
  depositRequired: boolean;
  depositCents: number | null;
  balanceDueDays: number;
}

export interface CreatePaymentRequest {
  items: { productId: string; quantity: number }[];
  expectedTotalCents: number;
  shipping: NamedAddress;
  billing: NamedAddress;
  /** default `full` */
  mode?: PaymentMode;
}

export interface CreatePaymentResponse {
  orderId: string;
  clientSecret: string;
  totalCents: number;
  /** what the card pays now: the total, or the deposit */
  amountCents: number;
  mode: PaymentMode;
}

export interface ApiErrorBody {
  error: { code: string; message: string; details?: string[]; totalCents?: number };
}
