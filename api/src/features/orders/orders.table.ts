import type { ActorType, OrderStatus, PaymentMethod, PaymentStatus, RefundStatus } from '@boatshop/contract';
import type { ColumnType, Generated, Insertable, JSONColumnType, Selectable, Updateable } from 'kysely';

/** Where an order's units of stock are; see features/stock/stock.repository.ts. */
export type OrderStockStatus = 'reserved' | 'released' | 'sold' | 'short' | 'restocked';

export interface AddressJson {
  line1: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
}

export interface NamedAddressJson {
  name: string;
  address: AddressJson;
}

export interface OrdersTable {
  id: Generated<string>;
  user_id: string;
  status: ColumnType<OrderStatus, OrderStatus | undefined, OrderStatus>;
  /** euro cents */
  total_cents: number;
  currency: Generated<string>;
  shipping: JSONColumnType<NamedAddressJson>;
  billing: JSONColumnType<NamedAddressJson>;
  payment_reference: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  paid_at: Date | null;
  stock_status: ColumnType<OrderStockStatus | null, OrderStockStatus | null | undefined, OrderStockStatus | null>;
  /** until when the order's units are held while unpaid (or the deposit's balance is due); null: no deadline */
  hold_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** the client address of the checkout that opened the order (per-address limit of open holds) */
  client_address: ColumnType<string | null, string | null | undefined, string | null>;
  /** hash of the shopper and the cart's content, while the order is open (pending) */
  cart_key: string | null;
  carrier: string | null;
  tracking_number: string | null;
  shipped_at: Date | null;
  delivered_at: Date | null;
  updated_at: Generated<Date>;
  /** what the card pays when reserving with a deposit; null: paid in full by card */
  deposit_cents: number | null;
  /** ISO 11649 RF… reference of a deposit order's bank transfer */
  bank_reference: string | null;
  /** date column: select it as text (`to_char(…, 'YYYY-MM-DD')`), never as a JavaScript Date */
  balance_due_on: ColumnType<unknown, string | null | undefined, string | null>;
  balance_reminder_sent_at: Date | null;
}

/** A snapshot of the product at purchase time, so order history survives product edits and deletions. */
export interface OrderItemsTable {
  id: Generated<string>;
  order_id: string;
  product_id: string | null;
  name: string;
  thumbnail_url: string;
  unit_price_cents: number;
  quantity: number;
  /** units this line took from stock when the order was opened (0 for built-to-order products) */
  reserved_units: Generated<number>;
}

export type OrderRow = Selectable<OrdersTable>;
export type NewOrderRow = Insertable<OrdersTable>;
export type OrderUpdate = Updateable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;
export type NewOrderItemRow = Insertable<OrderItemsTable>;

/** Every change of an order's state, written in the same transaction as the change (order-state.ts). */
export interface OrderEventsTable {
  id: Generated<string>;
  order_id: string;
  from_status: OrderStatus | null;
  to_status: OrderStatus;
  at: Generated<Date>;
  actor_type: ActorType;
  actor_id: string | null;
  amount_cents: number | null;
  note: string | null;
}

/** The money an order was (or is to be) paid with: a card payment intent, later bank transfers. */
export interface OrderPaymentsTable {
  id: Generated<string>;
  order_id: string;
  method: PaymentMethod;
  amount_cents: number;
  provider_reference: string | null;
  status: Generated<PaymentStatus>;
  created_at: Generated<Date>;
  confirmed_at: Date | null;
  /** bank transfers: the day the bank received it (date column; select as text) */
  received_on: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface OrderRefundsTable {
  id: Generated<string>;
  order_id: string;
  amount_cents: number;
  reason: string | null;
  status: Generated<RefundStatus>;
  provider_reference: string | null;
  idempotency_key: string | null;
  created_at: Generated<Date>;
  created_by_type: ActorType;
  created_by_id: string | null;
  /** card: through the provider; bank_transfer: sent back by the shop's bank, recorded by hand */
  method: Generated<PaymentMethod>;
  /** when the request last went to the provider */
  sent_at: Date | null;
}

export type OrderEventRow = Selectable<OrderEventsTable>;
export type OrderPaymentRow = Selectable<OrderPaymentsTable>;
export type OrderRefundRow = Selectable<OrderRefundsTable>;
