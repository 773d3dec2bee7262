// The API's routes as the typed client calls them: method, path (under /api), the schemas of the
// request's parts and of the success answer. The client imports this file with `import type`
// only (its types, not its values) and the route paths from ./paths.ts, so no TypeBox schema
// reaches a browser through it; api/test/contract/routes-table.test.ts checks every entry against the
// route the API really registers (same method and path, the very same schema objects).
import { ROUTE_PATHS } from './paths.js';
import {
  AdminOrderPageSchema,
  AdminOrderQuerySchema,
  AdminOrderSchema,
  BankTransferBodySchema,
  CancelBodySchema,
  DeliverBodySchema,
  RefundBodySchema,
  ResolveUnmatchedPaymentBodySchema,
  ShipBodySchema,
  UnmatchedPaymentListSchema,
  UnmatchedPaymentSchema,
} from './schemas/admin-orders.js';
import { AdminProductListQuerySchema, ProductInputSchema } from './schemas/admin-products.js';
import { BankRefundBodySchema, OrderLedgerSchema } from './schemas/ledger.js';
import {
  PictureAltBodySchema,
  PictureOrderBodySchema,
  PictureParamsSchema,
  ProductPictureListSchema,
  ProductPictureSchema,
} from './schemas/pictures.js';
import {
  ReconciliationAlertListSchema,
  ReconciliationAlertQuerySchema,
  ReconciliationAlertSchema,
  ReconciliationRunSchema,
  ResolveAlertBodySchema,
} from './schemas/reconciliation.js';
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
import { AdminIdParamsSchema, IdParamsSchema, NoContentSchema } from './schemas/common.js';
import {
  HealthSchema,
  JobCountsSchema,
  SitemapEntryPageSchema,
  SitemapPagesQuerySchema,
  SitemapPagesSchema,
  SitemapQuerySchema,
} from './schemas/operations.js';
import {
  AdminLeadPageSchema,
  AdminLeadQuerySchema,
  AdminLeadSchema,
  EnquiryBodySchema,
  EnquiryConfirmationSchema,
  EnquiryConfirmBodySchema,
  EnquiryListSchema,
  EnquiryReceiptSchema,
  EnquirySchema,
  FunnelQuerySchema,
  FunnelSchema,
  LeadLostBodySchema,
  LeadMessageBodySchema,
  LeadNoteBodySchema,
} from './schemas/leads.js';
import { OrderSchema, OrderSummaryListSchema } from './schemas/orders.js';
// offers
import {
  AdminOfferParamsSchema,
  CounterOfferBodySchema,
  OfferListQuerySchema,
  OfferListSchema,
  OfferSchema,
  SendOfferBodySchema,
} from './schemas/offers.js';
import {
  AdminViewingListSchema,
  AdminViewingsQuerySchema,
  BookViewingBodySchema,
  ConfirmViewingBodySchema,
  GuestViewingBodySchema,
  GuestViewingReceiptSchema,
  RescheduleViewingBodySchema,
  ViewingExceptionBodySchema,
  ViewingExceptionParamsSchema,
  ViewingListSchema,
  ViewingLocationInputSchema,
  ViewingLocationListSchema,
  ViewingLocationSchema,
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
import { AuditCsvSchema, AuditExportQuerySchema, AuditPageSchema, AuditQuerySchema } from './schemas/audit.js';
import {
  AcceptInvitationBodySchema,
  InviteStaffBodySchema,
  StaffInvitationSchema,
  StaffListSchema,
  StaffMemberSchema,
  StaffRoleBodySchema,
  StepUpBodySchema,
  StepUpStatusSchema,
} from './schemas/staff.js';
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
// books: invoices and credit notes
import {
  InvoiceCsvSchema,
  InvoiceListSchema,
  InvoicePdfSchema,
  InvoicePeriodQuerySchema,
  OrderInvoicesQuerySchema,
  VatSummarySchema,
} from './schemas/invoices.js';
// people: address book
import { SavedAddressBodySchema, SavedAddressListSchema, SavedAddressSchema } from './schemas/addresses.js';
// find: keep and compare
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
  admin: {
    products: {
      list: { ...P.admin.products.list, query: AdminProductListQuerySchema, status: 200, response: ProductPageSchema },
      create: { ...P.admin.products.create, body: ProductInputSchema, status: 201, response: ProductSchema },
      update: { ...P.admin.products.update, params: IdParamsSchema, body: ProductInputSchema, status: 200, response: ProductSchema },
      remove: { ...P.admin.products.remove, params: IdParamsSchema, status: 204, response: NoContentSchema },
      pictures: { ...P.admin.products.pictures, params: IdParamsSchema, status: 200, response: ProductPictureListSchema },
      // multipart/form-data: one `file` and an optional `alt` field (sent with XMLHttpRequest, for its progress)
      uploadPicture: { ...P.admin.products.uploadPicture, params: IdParamsSchema, status: 201, response: ProductPictureSchema },
      orderPictures: {
        ...P.admin.products.orderPictures,
        params: IdParamsSchema,
        body: PictureOrderBodySchema,
        status: 200,
        response: ProductPictureListSchema,
      },
      updatePicture: {
        ...P.admin.products.updatePicture,
        params: PictureParamsSchema,
        body: PictureAltBodySchema,
        status: 200,
        response: ProductPictureSchema,
      },
      removePicture: { ...P.admin.products.removePicture, params: PictureParamsSchema, status: 204, response: NoContentSchema },
    },
    orders: {
      list: { ...P.admin.orders.list, query: AdminOrderQuerySchema, status: 200, response: AdminOrderPageSchema },
      get: { ...P.admin.orders.get, params: AdminIdParamsSchema, status: 200, response: AdminOrderSchema },
      ship: { ...P.admin.orders.ship, params: AdminIdParamsSchema, body: ShipBodySchema, status: 200, response: AdminOrderSchema },
      deliver: { ...P.admin.orders.deliver, params: AdminIdParamsSchema, body: DeliverBodySchema, status: 200, response: AdminOrderSchema },
      cancel: { ...P.admin.orders.cancel, params: AdminIdParamsSchema, body: CancelBodySchema, status: 200, response: AdminOrderSchema },
      refund: { ...P.admin.orders.refund, params: AdminIdParamsSchema, body: RefundBodySchema, status: 200, response: AdminOrderSchema },
    },
    bankTransfers: {
      record: { ...P.admin.bankTransfers.record, body: BankTransferBodySchema, status: 200, response: AdminOrderSchema },
    },
    unmatchedPayments: {
      list: { ...P.admin.unmatchedPayments.list, status: 200, response: UnmatchedPaymentListSchema },
      resolve: {
        ...P.admin.unmatchedPayments.resolve,
        params: AdminIdParamsSchema,
        body: ResolveUnmatchedPaymentBodySchema,
        status: 200,
        response: UnmatchedPaymentSchema,
      },
    },
    jobs: {
      list: { ...P.admin.jobs.list, status: 200, response: JobCountsSchema },
    },
    // sales: the leads inbox
    leads: {
      list: { ...P.admin.leads.list, query: AdminLeadQuerySchema, status: 200, response: AdminLeadPageSchema },
      funnel: { ...P.admin.leads.funnel, query: FunnelQuerySchema, status: 200, response: FunnelSchema },
      get: { ...P.admin.leads.get, params: AdminIdParamsSchema, status: 200, response: AdminLeadSchema },
      reply: { ...P.admin.leads.reply, params: AdminIdParamsSchema, body: LeadMessageBodySchema, status: 200, response: AdminLeadSchema },
      note: { ...P.admin.leads.note, params: AdminIdParamsSchema, body: LeadNoteBodySchema, status: 200, response: AdminLeadSchema },
      markLost: {
        ...P.admin.leads.markLost,
        params: AdminIdParamsSchema,
        body: LeadLostBodySchema,
        status: 200,
        response: AdminLeadSchema,
      },
    },
    // people: staff, roles, audit log
    staff: {
      list: { ...P.admin.staff.list, status: 200, response: StaffListSchema },
      invite: { ...P.admin.staff.invite, body: InviteStaffBodySchema, status: 201, response: StaffInvitationSchema },
      revokeInvitation: { ...P.admin.staff.revokeInvitation, params: AdminIdParamsSchema, status: 204, response: NoContentSchema },
      setRole: {
        ...P.admin.staff.setRole,
        params: AdminIdParamsSchema,
        body: StaffRoleBodySchema,
        status: 200,
        response: StaffMemberSchema,
      },
      remove: { ...P.admin.staff.remove, params: AdminIdParamsSchema, status: 204, response: NoContentSchema },
    },
    audit: {
      list: { ...P.admin.audit.list, query: AuditQuerySchema, status: 200, response: AuditPageSchema },
      export: { ...P.admin.audit.export, query: AuditExportQuerySchema, status: 200, response: AuditCsvSchema },
    },
    // end people
    // ledger (issue 21)
    ledger: {
      get: { ...P.admin.ledger.get, params: AdminIdParamsSchema, status: 200, response: OrderLedgerSchema },
      bankRefund: {
        ...P.admin.ledger.bankRefund,
        params: AdminIdParamsSchema,
        body: BankRefundBodySchema,
        status: 200,
        response: OrderLedgerSchema,
      },
    },
    // ledger: reconciliation alerts
    reconciliation: {
      list: { ...P.admin.reconciliation.list, query: ReconciliationAlertQuerySchema, status: 200, response: ReconciliationAlertListSchema },
      run: { ...P.admin.reconciliation.run, status: 200, response: ReconciliationRunSchema },
      resolve: {
        ...P.admin.reconciliation.resolve,
        params: AdminIdParamsSchema,
        body: ResolveAlertBodySchema,
        status: 200,
        response: ReconciliationAlertSchema,
      },
    },
    // offers: the shop's offers on a lead
    offers: {
      list: { ...P.admin.offers.list, params: AdminIdParamsSchema, status: 200, response: OfferListSchema },
      send: { ...P.admin.offers.send, params: AdminIdParamsSchema, body: SendOfferBodySchema, status: 201, response: OfferSchema },
      acceptCounter: { ...P.admin.offers.acceptCounter, params: AdminOfferParamsSchema, status: 200, response: OfferSchema },
      declineCounter: { ...P.admin.offers.declineCounter, params: AdminOfferParamsSchema, status: 200, response: OfferSchema },
    },
    viewingLocations: {
      list: { ...P.admin.viewingLocations.list, status: 200, response: ViewingLocationListSchema },
      create: { ...P.admin.viewingLocations.create, body: ViewingLocationInputSchema, status: 201, response: ViewingLocationSchema },
      update: {
        ...P.admin.viewingLocations.update,
        params: AdminIdParamsSchema,
        body: ViewingLocationInputSchema,
        status: 200,
        response: ViewingLocationSchema,
      },
      setException: {
        ...P.admin.viewingLocations.setException,
        params: ViewingExceptionParamsSchema,
        body: ViewingExceptionBodySchema,
        status: 200,
        response: ViewingLocationSchema,
      },
      removeException: {
        ...P.admin.viewingLocations.removeException,
        params: ViewingExceptionParamsSchema,
        status: 200,
        response: ViewingLocationSchema,
      },
    },
    viewings: {
      day: { ...P.admin.viewings.day, query: AdminViewingsQuerySchema, status: 200, response: AdminViewingListSchema },
    },
    // end offers
  },
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
