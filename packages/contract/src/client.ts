// The typed client of the API (`@boatshop/contract/client`): a method per route of the table
// (`client.products.list({ filterType })`, `client.admin.orders.cancel(id, body)`, …) on the
// request core of ./request.ts. Every request and answer type comes from the route table
// (./routes.ts) through TypeBox's `Static<>`; no call site writes a type by hand, and no TypeBox
// reaches a browser: what runs is ./paths.ts (plain method + path data), ./constants.ts,
// ./request.ts and this file.
import { isUuid, MAX_IDS_PER_REQUEST } from './constants.js';
import { ROUTE_PATHS } from './paths.js';
import { createRequest, type ApiClientOptions, type BodyOf, type QueryOf, type RequestOptions } from './request.js';
import type { Product } from './schemas/products.js';

export * from './request.js';
export { ROUTE_PATHS } from './paths.js';

export function createApiClient(options: ApiClientOptions = {}) {
  const request = createRequest(options);

  type P = typeof ROUTE_PATHS;
  type O = RequestOptions;
  const R = ROUTE_PATHS;

  /**
   * GET /products/by-ids for any number of ids: duplicates and ids that are no UUID (the API
   * would refuse the whole request for one) are left out, the rest asked in chunks of
   * MAX_IDS_PER_REQUEST, the answers merged. Unknown ids are simply missing from `data`.
   */
  async function productsByIds(ids: readonly string[], o?: O): Promise<{ data: Product[] }> {
    const askable = [...new Set(ids)].filter(isUuid);
    const chunks: string[][] = [];
    for (let start = 0; start < askable.length; start += MAX_IDS_PER_REQUEST)
      chunks.push(askable.slice(start, start + MAX_IDS_PER_REQUEST));
    const answers = await Promise.all(chunks.map((chunk) => request(R.products.byIds, { query: { ids: chunk.join(',') } }, o)));
    return { data: answers.flatMap((answer) => answer.data) };
  }

  return {
    request,
    auth: {
      session: (o?: O) => request(R.auth.session, {}, o),
      register: (body: BodyOf<P['auth']['register']>, o?: O) => request(R.auth.register, { body }, o),
      login: (body: BodyOf<P['auth']['login']>, o?: O) => request(R.auth.login, { body }, o),
      logout: (o?: O) => request(R.auth.logout, {}, o),
      logoutEverywhere: (o?: O) => request(R.auth.logoutEverywhere, {}, o),
      requestPasswordReset: (body: BodyOf<P['auth']['requestPasswordReset']>, o?: O) => request(R.auth.requestPasswordReset, { body }, o),
      confirmPasswordReset: (body: BodyOf<P['auth']['confirmPasswordReset']>, o?: O) => request(R.auth.confirmPasswordReset, { body }, o),
      changePassword: (body: BodyOf<P['auth']['changePassword']>, o?: O) => request(R.auth.changePassword, { body }, o),
      verifyEmail: (body: BodyOf<P['auth']['verifyEmail']>, o?: O) => request(R.auth.verifyEmail, { body }, o),
      resendVerification: (o?: O) => request(R.auth.resendVerification, {}, o),
    },
    products: {
      list: (query: QueryOf<P['products']['list']> = {}, o?: O) => request(R.products.list, { query }, o),
      get: (id: string, o?: O) => request(R.products.get, { params: { id } }, o),
      byIds: productsByIds,
      sitemap: (query: QueryOf<P['products']['sitemap']> = {}, o?: O) => request(R.products.sitemap, { query }, o),
      sitemapPages: (query: QueryOf<P['products']['sitemapPages']> = {}, o?: O) => request(R.products.sitemapPages, { query }, o),
    },
    orders: {
      list: (o?: O) => request(R.orders.list, {}, o),
      get: (id: string, o?: O) => request(R.orders.get, { params: { id } }, o),
    },
    payments: {
      config: (o?: O) => request(R.payments.config, {}, o),
      quote: (body: BodyOf<P['payments']['quote']>, o?: O) => request(R.payments.quote, { body }, o),
      create: (body: BodyOf<P['payments']['create']>, o?: O) => request(R.payments.create, { body }, o),
      confirm: (body: BodyOf<P['payments']['confirm']>, o?: O) => request(R.payments.confirm, { body }, o),
    },
    admin: {
      products: {
        list: (query: QueryOf<P['admin']['products']['list']> = {}, o?: O) => request(R.admin.products.list, { query }, o),
        create: (body: BodyOf<P['admin']['products']['create']>, o?: O) => request(R.admin.products.create, { body }, o),
        update: (id: string, body: BodyOf<P['admin']['products']['update']>, o?: O) =>
          request(R.admin.products.update, { params: { id }, body }, o),
        remove: (id: string, o?: O) => request(R.admin.products.remove, { params: { id } }, o),
        // Uploads go through XMLHttpRequest for their progress (mf-admin's pictures/upload-picture.ts).
        pictures: (id: string, o?: O) => request(R.admin.products.pictures, { params: { id } }, o),
        orderPictures: (id: string, ids: string[], o?: O) => request(R.admin.products.orderPictures, { params: { id }, body: { ids } }, o),
        updatePicture: (id: string, pictureId: string, alt: string, o?: O) =>
          request(R.admin.products.updatePicture, { params: { id, pictureId }, body: { alt } }, o),
        removePicture: (id: string, pictureId: string, o?: O) => request(R.admin.products.removePicture, { params: { id, pictureId } }, o),
      },
      orders: {
        list: (query: QueryOf<P['admin']['orders']['list']> = {}, o?: O) => request(R.admin.orders.list, { query }, o),
        get: (id: string, o?: O) => request(R.admin.orders.get, { params: { id } }, o),
        ship: (id: string, body: BodyOf<P['admin']['orders']['ship']> = {}, o?: O) =>
          request(R.admin.orders.ship, { params: { id }, body }, o),
        deliver: (id: string, o?: O) => request(R.admin.orders.deliver, { params: { id }, body: {} }, o),
        cancel: (id: string, body: BodyOf<P['admin']['orders']['cancel']> = {}, o?: O) =>
          request(R.admin.orders.cancel, { params: { id }, body }, o),
        refund: (id: string, body: BodyOf<P['admin']['orders']['refund']>, o?: O) =>
          request(R.admin.orders.refund, { params: { id }, body }, o),
      },
      bankTransfers: {
        record: (body: BodyOf<P['admin']['bankTransfers']['record']>, o?: O) => request(R.admin.bankTransfers.record, { body }, o),
      },
      unmatchedPayments: {
        list: (o?: O) => request(R.admin.unmatchedPayments.list, {}, o),
        resolve: (id: string, body: BodyOf<P['admin']['unmatchedPayments']['resolve']> = {}, o?: O) =>
          request(R.admin.unmatchedPayments.resolve, { params: { id }, body }, o),
      },
      jobs: {
        list: (o?: O) => request(R.admin.jobs.list, {}, o),
      },
      // people: staff, roles, audit log
      staff: {
        list: (o?: O) => request(R.admin.staff.list, {}, o),
        invite: (body: BodyOf<P['admin']['staff']['invite']>, o?: O) => request(R.admin.staff.invite, { body }, o),
        revokeInvitation: (id: string, o?: O) => request(R.admin.staff.revokeInvitation, { params: { id } }, o),
        setRole: (id: string, body: BodyOf<P['admin']['staff']['setRole']>, o?: O) =>
          request(R.admin.staff.setRole, { params: { id }, body }, o),
        remove: (id: string, o?: O) => request(R.admin.staff.remove, { params: { id } }, o),
      },
      audit: {
        list: (query: QueryOf<P['admin']['audit']['list']> = {}, o?: O) => request(R.admin.audit.list, { query }, o),
      },
      // end people
      // ledger (issue 21)
      ledger: {
        get: (id: string, o?: O) => request(R.admin.ledger.get, { params: { id } }, o),
        bankRefund: (id: string, body: BodyOf<P['admin']['ledger']['bankRefund']>, o?: O) =>
          request(R.admin.ledger.bankRefund, { params: { id }, body }, o),
      },
      // ledger: reconciliation alerts
      reconciliation: {
        list: (query: QueryOf<P['admin']['reconciliation']['list']> = {}, o?: O) => request(R.admin.reconciliation.list, { query }, o),
        run: (o?: O) => request(R.admin.reconciliation.run, {}, o),
        resolve: (id: string, body: BodyOf<P['admin']['reconciliation']['resolve']>, o?: O) =>
          request(R.admin.reconciliation.resolve, { params: { id }, body }, o),
      },
    },
    // people: the invited person's side
    staff: {
      acceptInvitation: (body: BodyOf<P['staff']['acceptInvitation']>, o?: O) => request(R.staff.acceptInvitation, { body }, o),
      stepUpStatus: (o?: O) => request(R.staff.stepUpStatus, {}, o),
      stepUp: (body: BodyOf<P['staff']['stepUp']>, o?: O) => request(R.staff.stepUp, { body }, o),
    },
    // end people
    health: {
      get: (o?: O) => request(R.health.get, {}, o),
    },
    // find: faceted search
    find: {
      search: (query: QueryOf<P['find']['search']> = {}, o?: O) => request(R.find.search, { query }, o),
      builders: (o?: O) => request(R.find.builders, {}, o),
    },
    // cluster: probes (the metrics are Prometheus text, for a scraper rather than this client).
    live: { get: (o?: O) => request(R.live.get, {}, o) },
    ready: { get: (o?: O) => request(R.ready.get, {}, o) },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
