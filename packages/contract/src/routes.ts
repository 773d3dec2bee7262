// The API's routes as the typed client calls them: method, path (under /api), the schemas of the
// request's parts and of the success answer. The client imports this file with `import type`
// only (its types, not its values) and the route paths from ./paths.ts, so no TypeBox schema
// reaches a browser through it; api/test/contract/routes-table.test.ts checks every entry against the
// route the API really registers (same method and path, the very same schema objects).
import { ROUTE_PATHS } from './paths.js';
import {
  ChangePasswordBodySchema,
  LoginBodySchema,
  MessageBodySchema,
  PasswordResetBodySchema,
  PasswordResetConfirmBodySchema,
  RegisterBodySchema,
  SessionBodySchema,
  UserBodySchema,
  VerifyEmailBodySchema,
} from './schemas/auth.js';
import { LiveSchema, MetricsSchema, ReadySchema } from './schemas/cluster.js';
import { IdParamsSchema, NoContentSchema } from './schemas/common.js';
import {
  HealthSchema,
  SitemapEntryPageSchema,
  SitemapPagesQuerySchema,
  SitemapPagesSchema,
  SitemapQuerySchema,
} from './schemas/operations.js';
import {
  EnquiryBodySchema,
  EnquiryConfirmationSchema,
  EnquiryConfirmBodySchema,
  EnquiryListSchema,
  EnquiryReceiptSchema,
  EnquirySchema,
  LeadMessageBodySchema,
} from './schemas/leads.js';
import { OrderSchema, OrderSummaryListSchema } from './schemas/orders.js';
import { CounterOfferBodySchema, OfferListQuerySchema, OfferListSchema, OfferSchema } from './schemas/offers.js';
import {
  BookViewingBodySchema,
  ConfirmViewingBodySchema,
  GuestViewingBodySchema,
  GuestViewingReceiptSchema,
  RescheduleViewingBodySchema,
  ViewingListSchema,
  ViewingSchema,
  ViewingSlotsQuerySchema,
  ViewingSlotsSchema,
} from './schemas/viewings.js';
import {
  ConfirmPaymentBodySchema,
  ConfirmPaymentResponseSchema,
  CreatePaymentBodySchema,
  CreatePaymentResponseSchema,
  PaymentConfigSchema,
  PaymentQuoteSchema,
  QuoteBodySchema,
} from './schemas/payments.js';
import { AcceptInvitationBodySchema, StepUpBodySchema, StepUpStatusSchema } from './schemas/staff.js';
import {
  ProductListQuerySchema,
  ProductListSchema,
  ProductPageSchema,
  ProductSchema,
  ProductsByIdsQuerySchema,
} from './schemas/products.js';
import {
  BuyerCheckBodySchema,
  BuyerCheckSchema,
  ProductVatInputSchema,
  ProductVatSchema,
  OrderVatStatusSchema,
  VatCorrectionSchema,
  VatRateListSchema,
  VatRateSchema,
} from './schemas/vat.js';
import { SearchBuildersSchema, SearchQuerySchema, SearchResultSchema } from './schemas/search.js';
import {
  ConsentBodySchema,
  DataArchiveSchema,
  DataExportQuerySchema,
  DataExportSchema,
  ErasureRequestedSchema,
  PrivacyStatusSchema,
  PrivacyTokenBodySchema,
} from './schemas/privacy.js';
import {
  InvoiceCsvSchema,
  InvoiceListSchema,
  InvoicePdfSchema,
  InvoicePeriodQuerySchema,
  OrderInvoicesQuerySchema,
  VatSummarySchema,
} from './schemas/invoices.js';
import { SavedAddressBodySchema, SavedAddressListSchema, SavedAddressSchema } from './schemas/addresses.js';
import {
  AlertRunSchema,
  FavouriteIdsSchema,
  FavouriteListSchema,
  SavedSearchBodySchema,
  SavedSearchListSchema,
  SavedSearchSchema,
  UnsubscribeQuerySchema,
  UnsubscribeResultSchema,
} from './schemas/keep.js';
import { ADMIN_ROUTES } from './routes-admin.js';

const P = ROUTE_PATHS;

export const ROUTES = {
  auth: {
    session: { ...P.auth.session, status: 200, response: SessionBodySchema },
    register: { ...P.auth.register, body: RegisterBodySchema, status: 201, response: UserBodySchema },
    login: { ...P.auth.login, body: LoginBodySchema, status: 200, response: UserBodySchema },
    logout: { ...P.auth.logout, status: 204, response: NoContentSchema },
    logoutEverywhere: { ...P.auth.logoutEverywhere, status: 204, response: NoContentSchema },
    requestPasswordReset: { ...P.auth.requestPasswordReset, body: PasswordResetBodySchema, status: 202, response: MessageBodySchema },
    confirmPasswordReset: { ...P.auth.confirmPasswordReset, body: PasswordResetConfirmBodySchema, status: 204, response: NoContentSchema },
    changePassword: { ...P.auth.changePassword, body: ChangePasswordBodySchema, status: 200, response: UserBodySchema },
    verifyEmail: { ...P.auth.verifyEmail, body: VerifyEmailBodySchema, status: 204, response: NoContentSchema },
    resendVerification: { ...P.auth.resendVerification, status: 202, response: MessageBodySchema },
  },
  products: {
    list: { ...P.products.list, query: ProductListQuerySchema, status: 200, response: ProductPageSchema },
    byIds: { ...P.products.byIds, query: ProductsByIdsQuerySchema, status: 200, response: ProductListSchema },
    get: { ...P.products.get, params: IdParamsSchema, status: 200, response: ProductSchema },
    sitemap: { ...P.products.sitemap, query: SitemapQuerySchema, status: 200, response: SitemapEntryPageSchema },
    sitemapPages: { ...P.products.sitemapPages, query: SitemapPagesQuerySchema, status: 200, response: SitemapPagesSchema },
  },
  orders: {
    list: { ...P.orders.list, status: 200, response: OrderSummaryListSchema },
    get: { ...P.orders.get, params: IdParamsSchema, status: 200, response: OrderSchema },
  },
  payments: {
    config: { ...P.payments.config, status: 200, response: PaymentConfigSchema },
    quote: { ...P.payments.quote, body: QuoteBodySchema, status: 200, response: PaymentQuoteSchema },
    create: { ...P.payments.create, body: CreatePaymentBodySchema, status: 201, response: CreatePaymentResponseSchema },
    confirm: { ...P.payments.confirm, body: ConfirmPaymentBodySchema, status: 200, response: ConfirmPaymentResponseSchema },
  },
  admin: ADMIN_ROUTES,
  // sales: a shopper's enquiries and their conversations
  enquiries: {
    create: { ...P.enquiries.create, body: EnquiryBodySchema, status: 202, response: EnquiryReceiptSchema },
    confirm: { ...P.enquiries.confirm, body: EnquiryConfirmBodySchema, status: 200, response: EnquiryConfirmationSchema },
    list: { ...P.enquiries.list, status: 200, response: EnquiryListSchema },
    get: { ...P.enquiries.get, params: IdParamsSchema, status: 200, response: EnquirySchema },
    reply: { ...P.enquiries.reply, params: IdParamsSchema, body: LeadMessageBodySchema, status: 200, response: EnquirySchema },
  },
  // people: the invited person's side
  staff: {
    acceptInvitation: { ...P.staff.acceptInvitation, body: AcceptInvitationBodySchema, status: 200, response: UserBodySchema },
    stepUpStatus: { ...P.staff.stepUpStatus, status: 200, response: StepUpStatusSchema },
    stepUp: { ...P.staff.stepUp, body: StepUpBodySchema, status: 200, response: StepUpStatusSchema },
  },
  // people: a shopper's own data
  privacy: {
    status: { ...P.privacy.status, status: 200, response: PrivacyStatusSchema },
    requestExport: { ...P.privacy.requestExport, status: 202, response: DataExportSchema },
    downloadExport: {
      ...P.privacy.downloadExport,
      params: IdParamsSchema,
      query: DataExportQuerySchema,
      status: 200,
      response: DataArchiveSchema,
    },
    requestErasure: { ...P.privacy.requestErasure, status: 202, response: ErasureRequestedSchema },
    confirmErasure: { ...P.privacy.confirmErasure, body: PrivacyTokenBodySchema, status: 204, response: NoContentSchema },
    setConsent: { ...P.privacy.setConsent, body: ConsentBodySchema, status: 200, response: PrivacyStatusSchema },
  },
  // end people
  health: {
    get: { ...P.health.get, status: 200, response: HealthSchema },
  },
  // books: VAT, invoices and credit notes
  books: {
    productVat: { ...P.books.productVat, params: IdParamsSchema, status: 200, response: ProductVatSchema },
    adminSetProductVat: {
      ...P.books.adminSetProductVat,
      params: IdParamsSchema,
      body: ProductVatInputSchema,
      status: 200,
      response: ProductVatSchema,
    },
    adminVatRates: { ...P.books.adminVatRates, status: 200, response: VatRateListSchema },
    adminAddVatRate: { ...P.books.adminAddVatRate, body: VatRateSchema, status: 201, response: VatRateSchema },
    adminOrderVat: { ...P.books.adminOrderVat, params: IdParamsSchema, status: 200, response: OrderVatStatusSchema },
    adminCorrectOrderVat: { ...P.books.adminCorrectOrderVat, params: IdParamsSchema, status: 200, response: VatCorrectionSchema },
    buyerCheck: { ...P.books.buyerCheck, body: BuyerCheckBodySchema, status: 201, response: BuyerCheckSchema },
    orderInvoices: { ...P.books.orderInvoices, query: OrderInvoicesQuerySchema, status: 200, response: InvoiceListSchema },
    invoicePdf: { ...P.books.invoicePdf, params: IdParamsSchema, status: 200, response: InvoicePdfSchema },
    adminInvoices: { ...P.books.adminInvoices, query: InvoicePeriodQuerySchema, status: 200, response: InvoiceListSchema },
    adminInvoicePdf: { ...P.books.adminInvoicePdf, params: IdParamsSchema, status: 200, response: InvoicePdfSchema },
    adminInvoicesCsv: { ...P.books.adminInvoicesCsv, query: InvoicePeriodQuerySchema, status: 200, response: InvoiceCsvSchema },
    adminVatSummary: { ...P.books.adminVatSummary, query: InvoicePeriodQuerySchema, status: 200, response: VatSummarySchema },
    proFormaPdf: { ...P.books.proFormaPdf, params: IdParamsSchema, status: 200, response: InvoicePdfSchema },
  },
  // find: faceted search
  find: {
    search: { ...P.find.search, query: SearchQuerySchema, status: 200, response: SearchResultSchema },
    builders: { ...P.find.builders, status: 200, response: SearchBuildersSchema },
  },
  // cluster: probes and metrics for orchestrators and Prometheus.
  live: { get: { ...P.live.get, status: 200, response: LiveSchema } },
  ready: { get: { ...P.ready.get, status: 200, response: ReadySchema } },
  metrics: { get: { ...P.metrics.get, status: 200, response: MetricsSchema } },
  // offers: the shopper's side of the shop's offers
  offers: {
    list: { ...P.offers.list, query: OfferListQuerySchema, status: 200, response: OfferListSchema },
    get: { ...P.offers.get, params: IdParamsSchema, status: 200, response: OfferSchema },
    accept: { ...P.offers.accept, params: IdParamsSchema, status: 200, response: OfferSchema },
    decline: { ...P.offers.decline, params: IdParamsSchema, status: 200, response: OfferSchema },
    counter: { ...P.offers.counter, params: IdParamsSchema, body: CounterOfferBodySchema, status: 200, response: OfferSchema },
  },
  viewings: {
    slots: { ...P.viewings.slots, query: ViewingSlotsQuerySchema, status: 200, response: ViewingSlotsSchema },
    book: { ...P.viewings.book, body: BookViewingBodySchema, status: 201, response: ViewingSchema },
    bookAsGuest: { ...P.viewings.bookAsGuest, body: GuestViewingBodySchema, status: 202, response: GuestViewingReceiptSchema },
    confirm: { ...P.viewings.confirm, body: ConfirmViewingBodySchema, status: 200, response: ViewingSchema },
    list: { ...P.viewings.list, status: 200, response: ViewingListSchema },
    get: { ...P.viewings.get, params: IdParamsSchema, status: 200, response: ViewingSchema },
    cancel: { ...P.viewings.cancel, params: IdParamsSchema, status: 200, response: ViewingSchema },
    reschedule: {
      ...P.viewings.reschedule,
      params: IdParamsSchema,
      body: RescheduleViewingBodySchema,
      status: 200,
      response: ViewingSchema,
    },
  },
  // end offers
  // people: address book
  addresses: {
    list: { ...P.addresses.list, status: 200, response: SavedAddressListSchema },
    create: { ...P.addresses.create, body: SavedAddressBodySchema, status: 201, response: SavedAddressSchema },
    update: { ...P.addresses.update, params: IdParamsSchema, body: SavedAddressBodySchema, status: 200, response: SavedAddressSchema },
    remove: { ...P.addresses.remove, params: IdParamsSchema, status: 204, response: NoContentSchema },
    makeDefault: { ...P.addresses.makeDefault, params: IdParamsSchema, status: 200, response: SavedAddressListSchema },
  },
  // find: keep and compare
  keep: {
    favourites: { ...P.keep.favourites, status: 200, response: FavouriteListSchema },
    favouriteIds: { ...P.keep.favouriteIds, status: 200, response: FavouriteIdsSchema },
    addFavourite: { ...P.keep.addFavourite, params: IdParamsSchema, status: 204, response: NoContentSchema },
    removeFavourite: { ...P.keep.removeFavourite, params: IdParamsSchema, status: 204, response: NoContentSchema },
    savedSearches: { ...P.keep.savedSearches, status: 200, response: SavedSearchListSchema },
    saveSearch: { ...P.keep.saveSearch, body: SavedSearchBodySchema, status: 201, response: SavedSearchSchema },
    removeSavedSearch: { ...P.keep.removeSavedSearch, params: IdParamsSchema, status: 204, response: NoContentSchema },
    unsubscribe: { ...P.keep.unsubscribe, query: UnsubscribeQuerySchema, status: 200, response: UnsubscribeResultSchema },
    runAlerts: { ...P.keep.runAlerts, status: 200, response: AlertRunSchema },
  },
} as const;

export type Routes = typeof ROUTES;
