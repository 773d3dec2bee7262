// Where each route of the API lives (under /api): plain data, no TypeBox, so the typed client can
// carry it into a browser. ./routes.ts adds the schemas to each entry.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RoutePath {
  readonly method: HttpMethod;
  /** under the API's base (/api); `:name` is a path parameter */
  readonly path: string;
}

const route = <M extends HttpMethod, P extends string>(method: M, path: P) => ({ method, path }) as const;

/** The session route, also named alone: the request core asks it for the csrf cookie, and the shared core checks the session. */
export const SESSION_ROUTE = route('GET', '/auth/session');
/** The sign-out route, named alone for the shared core. */
export const LOGOUT_ROUTE = route('POST', '/auth/logout');

// Built in a call marked pure, so a bundle that uses only SESSION_ROUTE or LOGOUT_ROUTE leaves the table out.
export const ROUTE_PATHS = /* @__PURE__ */ (() =>
  ({
    auth: {
      session: SESSION_ROUTE,
      register: route('POST', '/auth/register'),
      login: route('POST', '/auth/login'),
      logout: LOGOUT_ROUTE,
      logoutEverywhere: route('POST', '/auth/logout-everywhere'),
      requestPasswordReset: route('POST', '/auth/password-reset'),
      confirmPasswordReset: route('POST', '/auth/password-reset/confirm'),
      changePassword: route('POST', '/auth/password'),
      verifyEmail: route('POST', '/auth/verify-email'),
      resendVerification: route('POST', '/auth/verify-email/resend'),
    },
    products: {
      list: route('GET', '/products'),
      byIds: route('GET', '/products/by-ids'),
      get: route('GET', '/products/:id'),
      sitemap: route('GET', '/products/sitemap'),
      sitemapPages: route('GET', '/products/sitemap/pages'),
    },
    orders: {
      list: route('GET', '/orders'),
      get: route('GET', '/orders/:id'),
    },
    payments: {
      config: route('GET', '/payments/config'),
      quote: route('POST', '/payments/quote'),
      create: route('POST', '/payments/create'),
      confirm: route('POST', '/payments/confirm'),
    },
    admin: {
      products: {
        list: route('GET', '/admin/products'),
        create: route('POST', '/admin/products'),
        update: route('PUT', '/admin/products/:id'),
        remove: route('DELETE', '/admin/products/:id'),
        pictures: route('GET', '/admin/products/:id/pictures'),
        uploadPicture: route('POST', '/admin/products/:id/pictures'),
        orderPictures: route('PUT', '/admin/products/:id/pictures/order'),
        updatePicture: route('PUT', '/admin/products/:id/pictures/:pictureId'),
        removePicture: route('DELETE', '/admin/products/:id/pictures/:pictureId'),
      },
      orders: {
        list: route('GET', '/admin/orders'),
        get: route('GET', '/admin/orders/:id'),
        ship: route('POST', '/admin/orders/:id/ship'),
        deliver: route('POST', '/admin/orders/:id/deliver'),
        cancel: route('POST', '/admin/orders/:id/cancel'),
        refund: route('POST', '/admin/orders/:id/refund'),
      },
      bankTransfers: {
        record: route('POST', '/admin/bank-transfers'),
      },
      unmatchedPayments: {
        list: route('GET', '/admin/unmatched-payments'),
        resolve: route('POST', '/admin/unmatched-payments/:id/resolve'),
      },
      jobs: {
        list: route('GET', '/admin/jobs'),
      },
      // sales: the leads inbox
      leads: {
        list: route('GET', '/admin/leads'),
        funnel: route('GET', '/admin/leads/funnel'),
        get: route('GET', '/admin/leads/:id'),
        reply: route('POST', '/admin/leads/:id/messages'),
        note: route('POST', '/admin/leads/:id/notes'),
        markLost: route('POST', '/admin/leads/:id/lost'),
      },
      // people: staff, roles, audit log
      staff: {
        list: route('GET', '/admin/staff'),
        invite: route('POST', '/admin/staff/invitations'),
        revokeInvitation: route('DELETE', '/admin/staff/invitations/:id'),
        setRole: route('PUT', '/admin/staff/:id/role'),
        remove: route('DELETE', '/admin/staff/:id'),
      },
      audit: {
        list: route('GET', '/admin/audit'),
        export: route('GET', '/admin/audit/export'),
      },
      // end people
      // ledger (issue 21): an order's money ledger and manual bank refunds
      ledger: {
        get: route('GET', '/admin/orders/:id/ledger'),
        bankRefund: route('POST', '/admin/orders/:id/bank-refund'),
      },
      // ledger: reconciliation alerts
      reconciliation: {
        list: route('GET', '/admin/reconciliation/alerts'),
        run: route('POST', '/admin/reconciliation/run'),
        resolve: route('POST', '/admin/reconciliation/alerts/:id/resolve'),
      },
      // offers: the shop's offers on a lead
      offers: {
        list: route('GET', '/admin/leads/:id/offers'),
        send: route('POST', '/admin/leads/:id/offers'),
        acceptCounter: route('POST', '/admin/leads/:id/offers/:offerId/accept-counter'),
        declineCounter: route('POST', '/admin/leads/:id/offers/:offerId/decline-counter'),
      },
      viewingLocations: {
        list: route('GET', '/admin/viewing-locations'),
        create: route('POST', '/admin/viewing-locations'),
        update: route('PUT', '/admin/viewing-locations/:id'),
        setException: route('PUT', '/admin/viewing-locations/:id/exceptions/:day'),
        removeException: route('DELETE', '/admin/viewing-locations/:id/exceptions/:day'),
      },
      viewings: {
        day: route('GET', '/admin/viewings'),
      },
      // end offers
    },
    // sales: a shopper's enquiries and their conversations
    enquiries: {
      create: route('POST', '/enquiries'),
      confirm: route('POST', '/enquiries/confirm'),
      list: route('GET', '/enquiries'),
      get: route('GET', '/enquiries/:id'),
      reply: route('POST', '/enquiries/:id/messages'),
    },
    // people: the invited person's side
    staff: {
      acceptInvitation: route('POST', '/staff/invitations/accept'),
      stepUpStatus: route('GET', '/auth/step-up'),
      stepUp: route('POST', '/auth/step-up'),
    },
    // people: a shopper's own data
    privacy: {
      status: route('GET', '/account/privacy'),
      requestExport: route('POST', '/account/privacy/export'),
      downloadExport: route('GET', '/account/privacy/export/:id'),
      requestErasure: route('POST', '/account/privacy/erasure'),
      confirmErasure: route('POST', '/account/privacy/erasure/confirm'),
      setConsent: route('PUT', '/account/privacy/consents'),
    },
    // end people
    health: {
      get: route('GET', '/health'),
    },
    // books: VAT, invoices and credit notes
    books: {
      productVat: route('GET', '/vat/products/:id'),
      adminSetProductVat: route('PUT', '/admin/vat/products/:id'),
      adminVatRates: route('GET', '/admin/vat/rates'),
      adminAddVatRate: route('POST', '/admin/vat/rates'),
      // books: a business's VAT ID confirmed after the sale (VIES was unavailable): credit notes and reissue
      adminOrderVat: route('GET', '/admin/vat/orders/:id'),
      adminCorrectOrderVat: route('POST', '/admin/vat/orders/:id/correction'),
      buyerCheck: route('POST', '/vat/buyer-checks'),
      orderInvoices: route('GET', '/invoices'),
      invoicePdf: route('GET', '/invoices/:id/pdf'),
      adminInvoices: route('GET', '/admin/invoices'),
      adminInvoicePdf: route('GET', '/admin/invoices/:id/pdf'),
      adminInvoicesCsv: route('GET', '/admin/invoices/export'),
      adminVatSummary: route('GET', '/admin/invoices/vat-summary'),
      // books: the pro-forma of a reserved order's balance (the order's id)
      proFormaPdf: route('GET', '/invoices/pro-forma/:id'),
    },
    // find: faceted search
    find: {
      search: route('GET', '/products/search'),
      builders: route('GET', '/products/search/builders'),
    },
    // cluster: probes and metrics for orchestrators and Prometheus.
    live: { get: route('GET', '/live') },
    ready: { get: route('GET', '/ready') },
    metrics: { get: route('GET', '/metrics') },
    // offers: the shopper's side of the shop's offers
    offers: {
      list: route('GET', '/offers'),
      get: route('GET', '/offers/:id'),
      accept: route('POST', '/offers/:id/accept'),
      decline: route('POST', '/offers/:id/decline'),
      counter: route('POST', '/offers/:id/counter'),
    },
    viewings: {
      slots: route('GET', '/viewings/slots'),
      book: route('POST', '/viewings'),
      bookAsGuest: route('POST', '/viewings/guest'),
      confirm: route('POST', '/viewings/guest/confirm'),
      list: route('GET', '/viewings'),
      get: route('GET', '/viewings/:id'),
      cancel: route('POST', '/viewings/:id/cancel'),
      reschedule: route('POST', '/viewings/:id/reschedule'),
    },
    // end offers
    // people: address book
    addresses: {
      list: route('GET', '/account/addresses'),
      create: route('POST', '/account/addresses'),
      update: route('PUT', '/account/addresses/:id'),
      remove: route('DELETE', '/account/addresses/:id'),
      makeDefault: route('PUT', '/account/addresses/:id/default'),
    },
    // find: keep and compare (favourites, saved searches and their alerts)
    keep: {
      favourites: route('GET', '/account/favourites'),
      favouriteIds: route('GET', '/account/favourites/ids'),
      addFavourite: route('PUT', '/account/favourites/:id'),
      removeFavourite: route('DELETE', '/account/favourites/:id'),
      savedSearches: route('GET', '/account/saved-searches'),
      saveSearch: route('POST', '/account/saved-searches'),
      removeSavedSearch: route('DELETE', '/account/saved-searches/:id'),
      unsubscribe: route('POST', '/saved-searches/unsubscribe'),
      runAlerts: route('POST', '/admin/jobs/saved-search-alerts'),
    },
  }) as const)();
