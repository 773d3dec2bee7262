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

export type OrderStatus = 'pending' | 'paid' | 'failed';

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

export interface Order extends OrderSummary {
  paidAt: string | null;
  items: OrderItem[];
  shipping: NamedAddress;
  billing: NamedAddress;
}

export interface PaymentConfig {
  provider: 'stripe' | 'local';
  publishableKey: string;
  localApiBase?: string;
}

export interface CreatePaymentRequest {
  items: { productId: string; quantity: number }[];
  expectedTotalCents: number;
  shipping: NamedAddress;
  billing: NamedAddress;
}

export interface CreatePaymentResponse {
  orderId: string;
  clientSecret: string;
  totalCents: number;
}

export interface ApiErrorBody {
  error: { code: string; message: string; details?: string[]; totalCents?: number };
}
