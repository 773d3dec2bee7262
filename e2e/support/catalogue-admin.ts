import type { APIRequestContext, PlaywrightWorkerArgs } from '@playwright/test';
import type { Product, ProductInput, ProductVatInput } from '@boatshop/contract';
import { expect } from './fixtures';
import { shopUrl } from './stack';

// Journeys that need products of their own make them through the admin API, so the seeded
// catalogue stays as the other journeys expect it, and take them away again afterwards.

/** The admin API, signed in with the worker's stored admin login (no extra sign-in). */
export class CatalogueAdmin {
  private constructor(
    private readonly request: APIRequestContext,
    private readonly csrf: string,
  ) {}

  static async open(playwright: PlaywrightWorkerArgs['playwright'], storageState: string): Promise<CatalogueAdmin> {
    const request = await playwright.request.newContext({ baseURL: shopUrl(), storageState });
    const csrf = (await request.storageState()).cookies.find((cookie) => cookie.name === 'csrf')?.value;
    expect(csrf, 'the stored admin login holds the csrf cookie').toBeTruthy();
    return new CatalogueAdmin(request, csrf!);
  }

  readonly created: Product[] = [];

  /** `stock` left out: built to order, as the API makes it. */
  async add(name: string, priceCents: number, stock?: number | null): Promise<Product> {
    // Yachts: the shopping journeys count the sailing boats.
    const input: ProductInput = {
      name,
      priceCents,
      category: 'yachts',
      thumbnailUrl: '/api/images/aldren-22-daysailer.svg',
      descriptionHtml: '<p>Made by a browser journey.</p>',
      ...(stock === undefined ? {} : { stock }),
    };
    const response = await this.request.post('/api/admin/products', { data: input, headers: { 'x-csrf-token': this.csrf } });
    expect(response.status(), await response.text()).toBe(201);
    const product = (await response.json()) as Product;
    this.created.push(product);
    return product;
  }

  async setPrice(product: Product, priceCents: number): Promise<void> {
    const { name, thumbnailUrl, descriptionHtml, category } = product;
    const response = await this.request.put(`/api/admin/products/${product.id}`, {
      data: { name, thumbnailUrl, descriptionHtml, category, priceCents } satisfies ProductInput,
      headers: { 'x-csrf-token': this.csrf },
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  async setVatTreatment(product: Product, input: ProductVatInput): Promise<void> {
    const response = await this.request.put(`/api/admin/vat/products/${product.id}`, {
      data: input,
      headers: { 'x-csrf-token': this.csrf },
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  async remove(product: Product): Promise<void> {
    const response = await this.request.delete(`/api/admin/products/${product.id}`, { headers: { 'x-csrf-token': this.csrf } });
    expect([204, 404]).toContain(response.status());
  }

  /** Takes away what the journey made, whether it got to the end or not. */
  async close(): Promise<void> {
    for (const product of this.created) await this.remove(product);
    await this.request.dispose();
  }
}
