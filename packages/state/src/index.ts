export { $session, $isAdmin, $permissions, checkSession, setSessionUser, signOut } from './session';
export type { SessionState } from './session';
export { $cart, $cartCount, $cartTotalCents, addToCart, clearCart, reduceCartItem, removeCartItem } from './cart';
export type { CartItem, CartProduct } from './cart';
export { formatDate, formatDateTime, formatDay, formatPrice } from './format';
export { ORDER_STATUS_LABELS, formatOrderStatus } from './order-status';
