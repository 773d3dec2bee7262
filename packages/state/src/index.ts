export * from './contract';
export { API_BASE, ApiError, CLIENT_ERROR_CODES, api, apiFetch, isApiError, readCookie } from './api-client';
export type { ApiRequestOptions, QueryValue } from './api-client';
export { $session, $isAdmin, checkSession, setSessionUser, signOut } from './session';
export type { SessionState } from './session';
export { $cart, $cartCount, $cartTotalCents, addToCart, clearCart, reduceCartItem, removeCartItem } from './cart';
export type { CartItem, CartProduct } from './cart';
export { formatDate, formatDateTime, formatDay, formatPrice } from './format';
export { ORDER_STATUS_LABELS, formatOrderStatus } from './order-status';
