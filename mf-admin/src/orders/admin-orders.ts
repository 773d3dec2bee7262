import { atom } from 'nanostores';
import type {
  AdminOrder,
  AdminOrderPage,
  AdminOrderSummary,
  BankTransferInput,
  CancelOrderInput,
  RefundOrderInput,
  ShipOrderInput,
  UnmatchedPayment,
} from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { ADMIN_ORDERS_PAGE_SIZE, type OrderStatus } from '@boatshop/contract/constants';
import { checkSession } from '@boatshop/state';
import { client } from '../api';
import { withStepUp } from '../staff/step-up';

export interface AdminOrderFilter {
  /** '' for the API's default list: every order but unpaid attempts. */
  status: OrderStatus | '';
  /** an order id (whole, or its first 8 characters) or part of the customer's e-mail */
  q: string;
  /** only reserved orders whose balance is past its due date */
  overdue?: boolean;
}

export interface AdminOrdersState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  filter: AdminOrderFilter;
  orders: AdminOrderSummary[];
  cursor: string | null;
  isLastPage: boolean;
  loadingMore: boolean;
  /** Why the last list request failed, for the page to show; null when it did not. */
  error: string | null;
}

const NO_FILTER: AdminOrderFilter = { status: '', q: '' };

const INITIAL_LIST: AdminOrdersState = {
  status: 'idle',
  filter: NO_FILTER,
  orders: [],
  cursor: null,
  isLastPage: true,
  loadingMore: false,
  error: null,
};

/** The orders as /admin/orders lists them: newest first, filtered, grown a page at a time. */
export const $adminOrders = atom<AdminOrdersState>(INITIAL_LIST);

export interface AdminOrderDetailsState {
  status: 'idle' | 'loading' | 'ready' | 'not-found' | 'failed';
  order: AdminOrder | null;
  error: string | null;
}

const INITIAL_DETAILS: AdminOrderDetailsState = { status: 'idle', order: null, error: null };

/** The order /admin/orders/:orderID shows; every action answers with the updated order, which lands here. */
export const $adminOrder = atom<AdminOrderDetailsState>(INITIAL_DETAILS);

export interface UnmatchedPaymentsState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  payments: UnmatchedPayment[];
}

/** Money the provider reported without an order to match it; the Orders page raises an alert for the open ones. */
export const $unmatchedPayments = atom<UnmatchedPaymentsState>({ status: 'idle', payments: [] });

/**
 * A 401 or 403 means the session ended or the admin role was taken away since the shell let
 * the admin in: asking again updates the shared session store, and the shell's guard then
 * sends the browser to /login.
 */
function recheckSessionOn(error: unknown): void {
  if (isApiError(error) && (error.status === 401 || error.status === 403)) void checkSession();
}

function messageOf(error: unknown, fallback: string): string {
  return isApiError(error) && error.status > 0 && error.status < 500 ? error.message : fallback;
}

function fetchPage(filter: AdminOrderFilter, cursor: string | null): Promise<AdminOrderPage> {
  return client.admin.orders.list({
    status: filter.status || undefined,
    overdue: filter.overdue || undefined,
    q: filter.q.trim() || undefined,
    limit: ADMIN_ORDERS_PAGE_SIZE,
    cursor: cursor ?? undefined,
  });
}

// Bumped by every new list request, so the answer to an older filter cannot overwrite a newer one.
let listGeneration = 0;

export async function loadAdminOrders(filter: AdminOrderFilter = NO_FILTER): Promise<void> {
  listGeneration += 1;
  const generation = listGeneration;
  $adminOrders.set({ ...INITIAL_LIST, filter, status: 'loading' });
  try {
    const page = await fetchPage(filter, null);
    if (generation !== listGeneration) return;
    $adminOrders.set({ ...INITIAL_LIST, filter, status: 'ready', orders: page.data, cursor: page.cursor, isLastPage: page.isLastPage });
  } catch (error) {
    if (generation !== listGeneration) return;
    recheckSessionOn(error);
    $adminOrders.set({ ...INITIAL_LIST, filter, status: 'failed', error: messageOf(error, 'The orders could not be loaded.') });
  }
}

export async function loadMoreAdminOrders(): Promise<void> {
  const state = $adminOrders.get();
  if (state.loadingMore || state.isLastPage || state.cursor === null) return;
  const generation = listGeneration;
  $adminOrders.set({ ...state, loadingMore: true, error: null });
  try {
    const page = await fetchPage(state.filter, state.cursor);
    if (generation !== listGeneration) return;
    const current = $adminOrders.get();
    const known = new Set(current.orders.map((order) => order.id));
    $adminOrders.set({
      ...current,
      orders: [...current.orders, ...page.data.filter((order) => !known.has(order.id))],
      cursor: page.cursor,
      isLastPage: page.isLastPage,
      loadingMore: false,
    });
  } catch (error) {
    if (generation !== listGeneration) return;
    recheckSessionOn(error);
    $adminOrders.set({ ...$adminOrders.get(), loadingMore: false, error: messageOf(error, 'More orders could not be loaded.') });
  }
}

let detailsGeneration = 0;

export async function loadAdminOrder(id: string): Promise<void> {
  detailsGeneration += 1;
  const generation = detailsGeneration;
  if ($adminOrder.get().order?.id !== id) $adminOrder.set({ ...INITIAL_DETAILS, status: 'loading' });
  try {
    const order = await client.admin.orders.get(id);
    if (generation === detailsGeneration) $adminOrder.set({ status: 'ready', order, error: null });
  } catch (error) {
    if (generation !== detailsGeneration) return;
    recheckSessionOn(error);
    if (isApiError(error) && (error.status === 404 || error.status === 400)) $adminOrder.set({ ...INITIAL_DETAILS, status: 'not-found' });
    else $adminOrder.set({ ...INITIAL_DETAILS, status: 'failed', error: messageOf(error, 'The order could not be loaded.') });
  }
}

/** Leaving the order page forgets it, so another order never flashes the previous one. */
export function clearAdminOrder(): void {
  detailsGeneration += 1;
  $adminOrder.set(INITIAL_DETAILS);
}

/** The updated order replaces the shown one and its row in the list, so going back shows the new state. */
function applyUpdatedOrder(order: AdminOrder): AdminOrder {
  detailsGeneration += 1;
  $adminOrder.set({ status: 'ready', order, error: null });
  const list = $adminOrders.get();
  if (list.orders.some((row) => row.id === order.id)) {
    const { id, createdAt, status, totalCents, refundedCents, itemCount, customer, balanceDueCents, overdue } = order;
    const row: AdminOrderSummary = { id, createdAt, status, totalCents, refundedCents, itemCount, customer, balanceDueCents, overdue };
    $adminOrders.set({ ...list, orders: list.orders.map((other) => (other.id === id ? row : other)) });
  }
  return order;
}

async function runAction(id: string, action: (id: string) => Promise<AdminOrder>): Promise<AdminOrder> {
  try {
    return applyUpdatedOrder(await action(id));
  } catch (error) {
    recheckSessionOn(error);
    // Refused (409): someone else changed the order meanwhile; show it as it now stands.
    if (isApiError(error) && error.status === 409) void loadAdminOrder(id);
    throw error;
  }
}

/** Each action rejects with the API's ApiError; its message says why (e.g. the state that refused it). */
export function shipOrder(id: string, input: ShipOrderInput): Promise<AdminOrder> {
  const body: ShipOrderInput = {};
  if (input.carrier?.trim()) body.carrier = input.carrier.trim();
  if (input.trackingNumber?.trim()) body.trackingNumber = input.trackingNumber.trim();
  return runAction(id, (order) => client.admin.orders.ship(order, body));
}

export function deliverOrder(id: string): Promise<AdminOrder> {
  return runAction(id, (order) => client.admin.orders.deliver(order));
}

/** A reserved order's cancellation must say whether its deposit is refunded or kept. */
export function cancelOrder(id: string, input: CancelOrderInput = {}): Promise<AdminOrder> {
  const body: CancelOrderInput = {};
  if (input.reason?.trim()) body.reason = input.reason.trim();
  if (input.deposit) body.deposit = input.deposit;
  return runAction(id, (order) => withStepUp(() => client.admin.orders.cancel(order, body)));
}

/**
 * Records a bank transfer received for the order whose `RF…` reference it quotes. The API
 * records the same (reference, bank reference) once, so a retry after a lost answer is safe; a
 * transfer that completes the total makes the order paid.
 */
export async function recordBankTransfer(input: BankTransferInput): Promise<AdminOrder> {
  const body: BankTransferInput = {
    reference: input.reference.replace(/\s+/g, '').toUpperCase(),
    amountCents: input.amountCents,
    receivedOn: input.receivedOn,
    bankReference: input.bankReference.trim(),
  };
  try {
    return applyUpdatedOrder(await client.admin.bankTransfers.record(body));
  } catch (error) {
    recheckSessionOn(error);
    // Refused (409): the order is no longer awaiting a transfer; show it as it now stands.
    const shown = $adminOrder.get().order;
    if (isApiError(error) && error.status === 409 && shown) void loadAdminOrder(shown.id);
    throw error;
  }
}

/**
 * Refunds through the provider. The caller keeps one `idempotencyKey` per refund it means
 * (from `newRefundKey()`), so a double click or a retry after a lost answer refunds once.
 */
export function refundOrder(id: string, input: RefundOrderInput): Promise<AdminOrder> {
  const body: RefundOrderInput = { amountCents: input.amountCents, idempotencyKey: input.idempotencyKey };
  if (input.reason?.trim()) body.reason = input.reason.trim();
  return runAction(id, (order) => withStepUp(() => client.admin.orders.refund(order, body)));
}

export function newRefundKey(): string {
  return `refund-${crypto.randomUUID()}`;
}

/** Loaded with the Orders page; a failure only hides the alert (the orders matter more). */
export async function loadUnmatchedPayments(): Promise<void> {
  $unmatchedPayments.set({ ...$unmatchedPayments.get(), status: 'loading' });
  try {
    const { data } = await client.admin.unmatchedPayments.list();
    $unmatchedPayments.set({ status: 'ready', payments: data });
  } catch (error) {
    recheckSessionOn(error);
    console.error('Unmatched payments could not be loaded', error);
    $unmatchedPayments.set({ status: 'failed', payments: [] });
  }
}

export async function resolveUnmatchedPayment(id: string, note?: string): Promise<void> {
  try {
    const resolved = await client.admin.unmatchedPayments.resolve(id, note?.trim() ? { note: note.trim() } : {});
    const state = $unmatchedPayments.get();
    $unmatchedPayments.set({ ...state, payments: state.payments.map((payment) => (payment.id === id ? resolved : payment)) });
  } catch (error) {
    recheckSessionOn(error);
    throw error;
  }
}
