// The values both sides of the API rely on: the API validates with them, the front ends show and
// check with them. Plain data, no TypeBox: a front end may import this entry point at runtime
// (`@boatshop/contract/constants`) without carrying the schema library into its bundle.

/** Every front end talks to the API through its own origin: the web server proxies /api. */
export const API_BASE = '/api';

// ------------------------------------------------------------------------------------------
// Catalogue

export const CATEGORIES = ['sailing-boats', 'yachts'] as const;
export type Category = (typeof CATEGORIES)[number];

/** `reserved`: none free but some held by open orders; `sold_out`: none left at all. */
export const AVAILABILITIES = ['in_stock', 'reserved', 'sold_out'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/** At or below this many units left, shoppers are told how many ("Only 2 left"). */
export const FEW_LEFT = 3;

/** GET /api/products: a page of the shop's list. */
export const PRODUCTS_PAGE_SIZE = 6;
export const PRODUCTS_MAX_PAGE_SIZE = 48;
/** GET /api/admin/products. */
export const ADMIN_PRODUCTS_PAGE_SIZE = 12;
/** GET /api/products/by-ids: at most this many ids in one request (the cart asks in chunks). */
export const MAX_IDS_PER_REQUEST = 100;
/** A free-text search (`q`) longer than this is refused. */
export const SEARCH_MAX_LENGTH = 200;
/** Cursors are opaque; this bounds what the API accepts. */
export const CURSOR_MAX_LENGTH = 300;

/** Product ids per sitemap file: the most sitemaps.org allows (GET /api/products/sitemap). */
export const SITEMAP_MAX_URLS = 50_000;

/** A product's name, counted in characters once trimmed. */
export const PRODUCT_NAME_MIN_LENGTH = 3;
export const PRODUCT_NAME_MAX_LENGTH = 120;
/** One hundred million euros: far above any boat, far below where cents stop being exact in a double. */
export const MAX_PRICE_CENTS = 10_000_000_000;
/** Units of one product an admin may record as free to buy (null stock = built to order). */
export const MAX_STOCK = 100_000;

// Pictures of a boat (docs/pictures.md)
/** Pictures one boat may have; the first is its card picture. */
export const MAX_PICTURES_PER_PRODUCT = 60;
/** The largest file an upload may send: 25 MB. */
export const PICTURE_MAX_BYTES = 25 * 1024 * 1024;
/** A picture's text alternative, in characters. */
export const PICTURE_ALT_MAX_LENGTH = 300;
/** What an upload may be, judged by its content, not its name. */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
/** The formats each uploaded picture is stored in, best first (the order of a <picture>'s sources). */
export const PICTURE_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type PictureFormat = (typeof PICTURE_FORMATS)[number];
/** How wide the product page shows its first picture (its `sizes`, and the server's preload of it). */
export const GALLERY_MAIN_SIZES = '(min-width: 900px) 58vw, 100vw';
/** How wide the product page shows each further picture. */
export const GALLERY_THUMB_SIZES = '(min-width: 900px) 14vw, 30vw';

// ------------------------------------------------------------------------------------------
// Accounts

/** Caps on the identity forms' fields (the real rules come back as messages a form can list). */
export const EMAIL_MAX_LENGTH = 254;
export const DISPLAY_NAME_MAX_LENGTH = 200;
export const MIN_PASSWORD_LENGTH = 8;
/** argon2 hashes any length, but nobody needs more, and hashing megabytes is a cheap attack. */
export const MAX_PASSWORD_LENGTH = 128;
/** The API's error (and the forms' own check before sending) when a password and its confirmation differ (SPEC's text). */
export const PASSWORDS_DIFFER = "Passwords don't match!";
/** What a password field accepts at all before the policy looks at it. */
export const PASSWORD_FIELD_MAX_LENGTH = 1024;
/** Reset and verification tokens from the e-mails' links. */
export const TOKEN_MAX_LENGTH = 200;

/** The double-submit csrf token: GET /api/auth/session sets the cookie, state-changing requests echo it. */
export const CSRF_COOKIE = 'csrf';
export const CSRF_HEADER = 'x-csrf-token';

// ------------------------------------------------------------------------------------------
// Orders

/**
 * An order's state; `failed` is a declined payment, `expired` a pending order that timed out,
 * `reserved` a deposit paid by card with the balance due by bank transfer.
 */
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
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** What an admin may do to an order (AdminOrder.allowedActions). */
export const ORDER_ACTIONS = ['ship', 'deliver', 'cancel', 'refund', 'record_transfer'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** Who made a step of an order's life happen. */
export const ACTOR_TYPES = ['admin', 'shopper', 'provider', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** Cancelling a reserved order says what happens to its deposit: back to the card, or kept. */
export const DEPOSIT_CHOICES = ['refund', 'keep'] as const;
export type DepositChoice = (typeof DEPOSIT_CHOICES)[number];

/** GET /api/admin/orders. */
export const ADMIN_ORDERS_PAGE_SIZE = 20;
export const ADMIN_ORDERS_MAX_PAGE_SIZE = 100;
/** Carrier and tracking number when shipping. */
export const SHIPPING_TEXT_MAX_LENGTH = 100;
/** Reasons (cancel, refund) typed by an admin. */
export const REASON_MAX_LENGTH = 500;
/** The note when an unmatched payment is resolved. */
export const NOTE_MAX_LENGTH = 1000;
/** The bank's own reference of a transfer. */
export const BANK_REFERENCE_MAX_LENGTH = 100;
/** A refund's idempotency key. */
export const IDEMPOTENCY_KEY_MIN_LENGTH = 8;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 100;
/** Stripe's per-payment ceiling for EUR: no card payment or refund may carry more. */
export const MAX_PAYMENT_CENTS = 99_999_999;

// ------------------------------------------------------------------------------------------
// Payments

/** `full`: the card pays the total; `deposit`: the card pays the deposit, the balance comes by bank transfer. */
export const PAYMENT_MODES = ['full', 'deposit'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

/** Which card field the browser shows: Stripe Elements, or the local stand-in's form. */
export const PAYMENT_PROVIDERS = ['stripe', 'local'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const PAYMENT_METHODS = ['card', 'bank_transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const REFUND_STATUSES = ['pending', 'requires_action', 'succeeded', 'failed', 'canceled'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** The shop's own floor: a cart below 1,00 € cannot be paid (Stripe's is 0,50 €). */
export const MIN_PAYMENT_CENTS = 100;
/** Enough for any boat cart; bounds keep the API's single INSERT … SELECT small. */
export const MAX_CART_LINES = 100;
export const MAX_LINE_QUANTITY = 999;
/** Each address field of the checkout form. */
export const ADDRESS_FIELD_MAX_LENGTH = 200;

// ------------------------------------------------------------------------------------------
// Ids

/** Every id the API hands out is a UUID; anything else is refused (or answered 404) before the database. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UUID = new RegExp(UUID_PATTERN);

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

// ------------------------------------------------------------------------------------------
// VAT (books)

/** How VAT applies to a boat; set by the admin per product. */
export const VAT_TREATMENTS = ['vat_paid_own_stock', 'margin_scheme', 'new_boat', 'not_vat_paid'] as const;
export type VatTreatment = (typeof VAT_TREATMENTS)[number];

/**
 * The treatments the search's "VAT paid" facet counts: EU VAT was paid on the boat and is not due
 * again on this sale (the dealer's own VAT-paid stock, or a second-hand boat sold under the
 * margin scheme). A new boat is taxed by its sale (often in the buyer's country) and a
 * not-VAT-paid boat by its import, so neither is "VAT paid" to a shopper.
 */
export const VAT_PAID_TREATMENTS: readonly VatTreatment[] = ['vat_paid_own_stock', 'margin_scheme'];

/** What shoppers and the admin read for each treatment. */
export const VAT_TREATMENT_LABELS: Record<VatTreatment, string> = {
  vat_paid_own_stock: "VAT paid, dealer's own stock",
  margin_scheme: 'Margin scheme (second-hand)',
  new_boat: 'New boat (new means of transport)',
  not_vat_paid: 'Not VAT-paid (the buyer imports)',
};

/** A boat is "new" for VAT when longer than this, and first used within NEW_BOAT_MAX_MONTHS or at most NEW_BOAT_MAX_HOURS sailed. */
export const NEW_BOAT_MIN_LENGTH_CM = 750;
export const NEW_BOAT_MAX_MONTHS = 3;
export const NEW_BOAT_MAX_HOURS = 100;

/** The member states' codes as the VAT rates table and VAT IDs use them (Greece: GR here, EL in VAT IDs). */
export const EU_COUNTRIES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
] as const;

export const BUYER_TYPES = ['consumer', 'business'] as const;
export type BuyerType = (typeof BUYER_TYPES)[number];
// sales: leads and their conversations
/** Where a lead stands, from the first question to the sale or its loss. */
export const LEAD_STATES = ['new', 'answered', 'viewing_booked', 'offer_sent', 'won', 'lost'] as const;
export type LeadState = (typeof LEAD_STATES)[number];
/** The longest message a shopper or the shop may write in one go. */
export const LEAD_MESSAGE_MAX_LENGTH = 5000;
/** The shop's leads per page in the admin inbox. */
export const ADMIN_LEADS_PAGE_SIZE = 20;
// offers: the shop's offers on a lead
/**
 * sent: awaiting the buyer (again, after the shop declined the counter-offer); countered: the
 * buyer's one counter-offer awaits the shop; accepted: agreed, to be paid through the checkout;
 * declined: by the buyer.
 */
export const OFFER_STATES = ['sent', 'countered', 'accepted', 'declined'] as const;
export type OfferState = (typeof OFFER_STATES)[number];
export const OFFER_CONDITIONS_MAX_LENGTH = 2000;
/** 100.000.000,00 € in cents: above any boat the shop sells, well inside a safe JavaScript integer. */
export const OFFER_MAX_PRICE_CENTS = 10_000_000_000;
// end offers
// Staff (people): roles, permissions, audit log. The one table of who may do what; the API
// enforces it on every admin route, mf-admin reads it to show each person only what is theirs.

/** What an admin route needs; each route under /api/admin declares one in `config.permission`. */
export const PERMISSIONS = [
  'catalog.read',
  'catalog.write',
  'orders.read',
  'orders.write',
  'orders.refund',
  'leads.read',
  'leads.write',
  'offers.write',
  'invoices.read',
  'invoices.write',
  'reports.read',
  'ledger.read',
  'reconciliation.write',
  'audit.read',
  'staff.manage',
  'exports.run',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** A staff member holds exactly one of these next to `user`; `owner` holds every permission. */
export const STAFF_ROLES = ['owner', 'sales', 'accountant', 'editor'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const ROLE_PERMISSIONS: { readonly [R in StaffRole]: readonly Permission[] } = {
  owner: PERMISSIONS,
  sales: ['catalog.read', 'orders.read', 'orders.write', 'orders.refund', 'leads.read', 'leads.write', 'offers.write'],
  accountant: [
    'catalog.read',
    'orders.read',
    'leads.read',
    'invoices.read',
    'invoices.write',
    'reports.read',
    'ledger.read',
    'reconciliation.write',
    'audit.read',
    'exports.run',
  ],
  editor: ['catalog.read', 'catalog.write'],
};

/** The staff role among a user's roles, or null for a shopper. */
export function staffRoleOf(roles: readonly string[]): StaffRole | null {
  return STAFF_ROLES.find((role) => roles.includes(role)) ?? null;
}

/** Everything a user's roles allow (empty for a shopper). */
export function permissionsOf(roles: readonly string[]): readonly Permission[] {
  const role = staffRoleOf(roles);
  return role ? ROLE_PERMISSIONS[role] : [];
}

export function hasPermission(roles: readonly string[], permission: Permission): boolean {
  return permissionsOf(roles).includes(permission);
}

/** The permission each order action needs (the admin order page offers only these; the API checks them). */
export const ORDER_ACTION_PERMISSIONS: { readonly [A in OrderAction]: Permission } = {
  ship: 'orders.write',
  deliver: 'orders.write',
  cancel: 'orders.write',
  refund: 'orders.refund',
  record_transfer: 'reconciliation.write',
};

/** An invitation link is good for this long. */
export const STAFF_INVITATION_TTL_HOURS = 72;
/** GET /api/admin/audit. */
export const AUDIT_PAGE_SIZE = 50;
/** Re-entering the password (step-up) lets sensitive actions through for this long. */
export const STEP_UP_TTL_SECONDS = 300;
// people: the address book and consents
/** What a saved address is for; each kind has at most one default. */
export const SAVED_ADDRESS_KINDS = ['shipping', 'billing'] as const;
export type SavedAddressKind = (typeof SAVED_ADDRESS_KINDS)[number];
/** How many addresses one account may keep. */
export const MAX_SAVED_ADDRESSES = 20;
// The consents a shopper gives (front ends show the wording, so it lives with the constants).
/** What a shopper can agree to; the wording shown is recorded with each answer. */
export const CONSENT_TOPICS = ['boat_alerts', 'newsletter'] as const;
export type ConsentTopic = (typeof CONSENT_TOPICS)[number];
/** The sentence the shopper agrees to, recorded with the answer. */
export const CONSENT_WORDING: Record<ConsentTopic, string> = {
  boat_alerts: 'E-mail me when a boat matching my saved searches comes in.',
  newsletter: 'Send me the Boat shop newsletter, at most once a month.',
};
// end people
// Boat specifications (find)
export * from './boat-specs.js';
export * from './number-text.js';
// Keep and compare (find)
export * from './keep.js';
