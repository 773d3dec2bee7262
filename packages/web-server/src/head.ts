import type { ItemAvailability, Product as SchemaProduct, WithContext } from 'schema-dts';
import { boatSpecsProperties, itemCondition, type HeadBoatSpecs } from './boat-specs-ld';
import { NOINDEX_FOLLOW } from '@boatshop/web-shared/listing-indexing';
import type { Page } from './pages';
import { germanNumber, type ProductPicture } from '@boatshop/contract';

/** The product fields a page head uses, as GET /api/products/:id returns them. */
export interface HeadProduct {
  id: string;
  name: string;
  thumbnailUrl?: string | null;
  priceCents: number;
  descriptionHtml?: string | null;
  category?: string | null;
  /** The product's stock state (GET /api/products/:id); absent on an API from before stock was kept. */
  availability?: 'in_stock' | 'reserved' | 'sold_out' | null;
  /** The boat's specifications; absent on an API from before they were kept. */
  specs?: HeadBoatSpecs | null;
  /** The boat's pictures in order, the first being thumbnailUrl's; absent on an API from before galleries. */
  pictures?: Pick<ProductPicture, 'src' | 'variants'>[] | null;
}

/** What the server learnt about the page's data: the product, that it does not exist, or nothing (API slow or down). */
export type PageData = { product: HeadProduct } | { missing: true } | null;

export interface PageHead {
  status: 200 | 404 | 503;
  title: string;
  description: string;
  /** Absolute; null where the page must not be indexed. */
  canonical: string | null;
  robots: string | null;
  /** property → content, in order (og:* and product:*). */
  openGraph: [string, string][];
  /** name → content (twitter:*). */
  twitter: [string, string][];
  jsonLd: WithContext<SchemaProduct> | null;
}

export const SITE_NAME = 'Boat shop';
export const GENERIC_TITLE = 'Boat shop: sailing boats and yachts';
const GENERIC_DESCRIPTION =
  'Sailing boats and yachts from trusted yards: daysailers, cruisers and bluewater yachts with full specifications and prices in euros.';
const NOINDEX = 'noindex, nofollow';
const DESCRIPTION_MAX = 160;

// The API's availability values (docs/ARCHITECTURE.md, `Product`) as schema.org's ItemAvailability.
const AVAILABILITY: Record<NonNullable<HeadProduct['availability']>, ItemAvailability> = {
  in_stock: 'https://schema.org/InStock',
  reserved: 'https://schema.org/OutOfStock',
  sold_out: 'https://schema.org/SoldOut',
};

/** `path` on the public origin; absolute http(s) URLs stay as they are, anything else (javascript:, data:) is dropped. */
export function absoluteUrl(publicUrl: string, path: string | null | undefined): string | null {
  if (!path) return null;
  try {
    const url = new URL(path, `${publicUrl.replace(/\/+$/, '')}/`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Cents as the decimal euro amount structured data and Open Graph want: 2190000 → "21900.00". */
export function euros(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** "21.900,00 €" (de-DE, a no-break space before the sign), as the shop's pages show prices, without an Intl object per page. */
function displayPrice(cents: number): string {
  return `${germanNumber(cents / 100, 2, 2)}\u00a0€`;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** The sanitised description as one line of plain text, cut at a word near `max` characters. */
export function plainText(html: string, max = DESCRIPTION_MAX): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (entity, name: string) => {
      const lower = name.toLowerCase();
      if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
      if (lower.startsWith('#') && lower !== '#39') return String.fromCodePoint(Number(lower.slice(1)));
      return ENTITIES[lower] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, '')}…`;
}

function listingTitle(category: { label: string } | null, builder: string | null): { title: string; description: string } {
  if (builder) {
    return {
      title: titled(`${builder} boats for sale`),
      description: `${builder} sailing boats and yachts for sale at ${SITE_NAME}, newest first, with specifications and prices in euros.`,
    };
  }
  if (category) {
    return {
      title: titled(`${category.label} for sale`),
      description: `${category.label} for sale at ${SITE_NAME}, newest first, with specifications and prices in euros.`,
    };
  }
  return {
    title: titled('Browse sailing boats and yachts'),
    description: `Every sailing boat and yacht at ${SITE_NAME}, newest first, with specifications and prices in euros.`,
  };
}

function titled(title: string): string {
  return `${title} | ${SITE_NAME}`;
}

/**
 * The head of one page, computed from the route and what the API said. Pure: the server does
 * the fetching (with a cache and a time-out) and passes `null` data when it has none, which
 * gives the generic head and status 200, never an error.
 */
export function buildHead(page: Page, pathname: string, data: PageData, publicUrl: string): PageHead {
  const base: PageHead = {
    status: 200,
    title: GENERIC_TITLE,
    description: GENERIC_DESCRIPTION,
    canonical: absoluteUrl(publicUrl, pathname),
    robots: null,
    openGraph: [],
    twitter: [],
    jsonLd: null,
  };
  const withSharing = (head: PageHead): PageHead => ({
    ...head,
    openGraph: [
      ['og:site_name', SITE_NAME],
      ['og:type', 'website'],
      ['og:title', head.title],
      ['og:description', head.description],
      ...(head.canonical ? [['og:url', head.canonical] as [string, string]] : []),
    ],
  });

  switch (page.kind) {
    case 'home':
      return withSharing({ ...base, canonical: absoluteUrl(publicUrl, '/') });
    case 'search': {
      const path = page.category ? `/search/${page.category.slug}` : '/search';
      if (page.query) {
        // Internal search results are thin pages for a search engine: followed, not indexed.
        return {
          ...base,
          title: titled(`Search results for “${page.query}”`),
          description: `Sailing boats and yachts matching “${page.query}” at ${SITE_NAME}.`,
          canonical: null,
          robots: NOINDEX_FOLLOW,
        };
      }
      if (!page.indexing.indexable) {
        // A filter combination: a near-copy of its category or builder page for a search engine,
        // so followed (its boats are found) but not indexed, and it names no canonical URL.
        return { ...base, ...listingTitle(page.category, null), canonical: null, robots: NOINDEX_FOLLOW };
      }
      const { builder, canonicalSearch } = page.indexing;
      return withSharing({
        ...base,
        ...listingTitle(page.category, builder),
        canonical: absoluteUrl(publicUrl, `${path}${canonicalSearch}`),
      });
    }
    case 'product':
      return productHead(base, page.id, data, publicUrl);
    case 'private':
      return { ...base, title: page.title === SITE_NAME ? SITE_NAME : titled(page.title), canonical: null, robots: NOINDEX };
    case 'not-found':
      return { ...base, status: 404, title: titled('Page not found'), canonical: null, robots: NOINDEX };
    case 'unavailable':
      return { ...base, status: 503, title: titled('Temporarily unavailable'), canonical: null, robots: NOINDEX };
  }
}

function productHead(base: PageHead, id: string, data: PageData, publicUrl: string): PageHead {
  if (data && 'missing' in data) {
    return { ...base, status: 404, title: titled('Product not found'), canonical: null, robots: NOINDEX };
  }
  if (!data) return { ...base, canonical: absoluteUrl(publicUrl, `/product/${encodeURIComponent(id)}`) };

  const { product } = data;
  const url = absoluteUrl(publicUrl, `/product/${encodeURIComponent(product.id)}`)!;
  const image = absoluteUrl(publicUrl, product.thumbnailUrl);
  const price = euros(product.priceCents);
  const description =
    plainText(product.descriptionHtml ?? '') || `${product.name} for ${displayPrice(product.priceCents)} at ${SITE_NAME}.`;
  const title = titled(`${product.name}, ${displayPrice(product.priceCents)}`);
  const availability = AVAILABILITY[product.availability ?? 'in_stock'] ?? AVAILABILITY.in_stock;
  const specProperties = boatSpecsProperties(product.specs);

  return {
    ...base,
    title,
    description,
    canonical: url,
    openGraph: [
      ['og:site_name', SITE_NAME],
      ['og:type', 'product'],
      ['og:title', product.name],
      ['og:description', description],
      ['og:url', url],
      ...(image ? [['og:image', image] as [string, string], ['og:image:alt', product.name] as [string, string]] : []),
      ['product:price:amount', price],
      ['product:price:currency', 'EUR'],
    ],
    twitter: [
      ['twitter:card', image ? 'summary_large_image' : 'summary'],
      ['twitter:title', product.name],
      ['twitter:description', description],
      ...(image ? [['twitter:image', image] as [string, string]] : []),
    ],
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      '@id': url,
      name: product.name,
      description,
      sku: product.id,
      url,
      ...(image ? { image: imagesOf(publicUrl, image, product.pictures) } : {}),
      offers: {
        '@type': 'Offer',
        url,
        price,
        priceCurrency: 'EUR',
        availability,
        itemCondition: itemCondition(product.specs),
      },
      ...(specProperties.length > 0 ? { additionalProperty: specProperties } : {}),
    },
  };
}

/** Text and attribute values in HTML: the five characters that can end or open markup. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON for the inside of a <script> element (JSON-LD, the remotes' data block): no `<`, `>` or
 * `&` survive, so `</script>` or `<!--` in a product name cannot end or confuse the element,
 * and U+2028/2029 are escaped for old JavaScript parsers. Still valid JSON, same value.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The head as HTML tags, every value escaped. */
export function renderHead(head: PageHead): string {
  const tags = [`<title>${escapeHtml(head.title)}</title>`, `<meta name="description" content="${escapeHtml(head.description)}">`];
  if (head.robots) tags.push(`<meta name="robots" content="${escapeHtml(head.robots)}">`);
  if (head.canonical) tags.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}">`);
  for (const [property, content] of head.openGraph) tags.push(`<meta property="${escapeHtml(property)}" content="${escapeHtml(content)}">`);
  for (const [name, content] of head.twitter) tags.push(`<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}">`);
  if (head.jsonLd) tags.push(`<script type="application/ld+json">${jsonForScript(head.jsonLd)}</script>`);
  return tags.join('');
}

/** Every picture of the boat for its JSON-LD, the card picture first, each once. */
function imagesOf(publicUrl: string, card: string, pictures: HeadProduct['pictures']): string[] {
  const all = [card, ...(pictures ?? []).map((picture) => absoluteUrl(publicUrl, picture.src))];
  return [...new Set(all.filter((url): url is string => Boolean(url)))];
}
