/**
 * The shop's routes as the shell's server sees them (mirrors shell/src/routes.tsx and SPEC §2):
 * which page a path is, which remote page renders it, and whether search engines may index it.
 */

export const CATEGORIES = [
  { slug: 'sailing-boats', label: 'Sailing boats' },
  { slug: 'yachts', label: 'Yachts' },
] as const;

export type CategorySlug = (typeof CATEGORIES)[number]['slug'];

export type RemoteName = 'mf_catalog' | 'mf_cart_checkout' | 'mf_account' | 'mf_admin';

export type Page =
  | { kind: 'home' }
  | { kind: 'search'; category: (typeof CATEGORIES)[number] | null; query: string; cursor: string }
  | { kind: 'product'; id: string }
  /** A page for one shopper (cart, account, sign-in) or the admin: never indexed. */
  | { kind: 'private'; title: string }
  | { kind: 'not-found' };

/** The remote page that renders a path (for the first-paint hints), or null for none. */
export interface RemotePage {
  remote: RemoteName;
  page: string;
}

const PRIVATE_PAGES: { pattern: RegExp; title: string; remote: RemotePage | null }[] = [
  { pattern: /^\/cart$/, title: 'Your cart', remote: { remote: 'mf_cart_checkout', page: 'Cart' } },
  { pattern: /^\/payment$/, title: 'Payment', remote: { remote: 'mf_cart_checkout', page: 'Payment' } },
  { pattern: /^\/dashboard$/, title: 'Your account', remote: { remote: 'mf_account', page: 'Dashboard' } },
  { pattern: /^\/order\/[^/]+$/, title: 'Your order', remote: { remote: 'mf_account', page: 'Order' } },
  { pattern: /^\/login$/, title: 'Log in', remote: { remote: 'mf_account', page: 'Login' } },
  { pattern: /^\/registration$/, title: 'Register', remote: { remote: 'mf_account', page: 'Registration' } },
  { pattern: /^\/password-reset$/, title: 'Reset your password', remote: { remote: 'mf_account', page: 'PasswordReset' } },
  {
    pattern: /^\/password-reset\/confirm$/,
    title: 'Choose a new password',
    remote: { remote: 'mf_account', page: 'PasswordResetConfirm' },
  },
  // No hint for mf_admin: its manifest is requested only after the admin guard (shell README).
  { pattern: /^\/admin(\/.*)?$/, title: 'Admin', remote: null },
];

/** Paths never indexed even where the shell has no route for them yet (404 pages are noindex anyway). */
const ALWAYS_NOINDEX = [/^\/order(\/|$)/, /^\/admin/, /^\/password-reset/, /^\/verify-email/];

/** A path segment decoded, or null when it is not valid percent-encoding (a 404, not an error). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function matchPage(pathname: string, search: URLSearchParams): Page {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/') return { kind: 'home' };
  const query = search.get('q')?.trim() ?? '';
  const cursor = search.get('cursor') ?? '';
  if (path === '/search') return { kind: 'search', category: null, query, cursor };
  const browse = /^\/search\/([^/]+)$/.exec(path);
  if (browse) {
    const category = CATEGORIES.find((c) => c.slug === decodeSegment(browse[1]!));
    return category ? { kind: 'search', category, query, cursor } : { kind: 'not-found' };
  }
  const product = /^\/product\/([^/]+)$/.exec(path);
  if (product) {
    const id = decodeSegment(product[1]!);
    return id ? { kind: 'product', id } : { kind: 'not-found' };
  }
  const page = PRIVATE_PAGES.find(({ pattern }) => pattern.test(path));
  if (page) return { kind: 'private', title: page.title };
  if (ALWAYS_NOINDEX.some((pattern) => pattern.test(path))) return { kind: 'private', title: 'Boat shop' };
  return { kind: 'not-found' };
}

export function remotePageOf(pathname: string, page: Page): RemotePage | null {
  switch (page.kind) {
    case 'home':
      return { remote: 'mf_catalog', page: 'Home' };
    case 'search':
      return { remote: 'mf_catalog', page: 'Search' };
    case 'product':
      return { remote: 'mf_catalog', page: 'Product' };
    case 'private': {
      const path = pathname.replace(/\/+$/, '');
      return PRIVATE_PAGES.find(({ pattern }) => pattern.test(path))?.remote ?? null;
    }
    case 'not-found':
      return null;
  }
}
