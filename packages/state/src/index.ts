export * from './contract';
export { API_BASE, ApiError, CLIENT_ERROR_CODES, api, apiFetch, isApiError, readCookie } from './api-client';
export type { ApiRequestOptions, QueryValue } from './api-client';
export {
  $session,
  $userErr,
  $isAdmin,
  $resetPasswordSuccess,
  PASSWORDS_DIFFER,
  checkSession,
  confirmPasswordReset,
  requestPasswordReset,
  resetUserState,
  setSessionUser,
  signIn,
  signInWithGoogle,
  signOut,
  signUp,
} from './session';
export type { ConfirmPasswordResetInput, SessionState, SignInInput, SignUpInput } from './session';
export {
  $emailVerification,
  $passwordChange,
  $signOutEverywhereError,
  $verificationResend,
  changePassword,
  resendVerificationEmail,
  resetPasswordChange,
  signOutEverywhere,
  verifyEmail,
} from './account-security';
export type { ChangePasswordInput, EmailVerificationState, PasswordChangeState, VerificationResendState } from './account-security';
export { $cart, $cartCount, $cartTotalCents, addToCart, clearCart, reduceCartItem, removeCartItem } from './cart';
export type { CartItem, CartProduct } from './cart';
export { formatDate, formatDateTime, formatDay, formatPrice } from './format';
export { $orderDetails, $orderHistory, clearOrderDetails, confirmOrderPayment, fetchOrderDetails, fetchOrderHistory } from './orders';
export type { OrderDetailsState, OrderHistoryState } from './orders';
export { ORDER_STATUS_LABELS, formatOrderStatus } from './order-status';
