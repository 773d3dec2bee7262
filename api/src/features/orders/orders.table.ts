import type { ColumnType, Generated, Insertable, JSONColumnType, Selectable, Updateable } from 'kysely';

export const ORDER_STATUSES = ['pending', 'paid', 'failed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Where an order's units of stock are; see features/stock/stock.repository.ts. */
export type OrderStockStatus = 'reserved' | 'released' | 'sold' | 'short';

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
