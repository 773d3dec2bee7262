// The admin area's routes, as ROUTES.admin of ./routes.ts (same rules: schemas by reference,
// checked against the API by api/test/contract/routes-table.test.ts).
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
import { AdminIdParamsSchema, IdParamsSchema, NoContentSchema } from './schemas/common.js';
import { JobCountsSchema } from './schemas/operations.js';
import {
  AdminLeadPageSchema,
  AdminLeadQuerySchema,
  AdminLeadSchema,
  FunnelQuerySchema,
  FunnelSchema,
  LeadLostBodySchema,
  LeadMessageBodySchema,
  LeadNoteBodySchema,
} from './schemas/leads.js';
import { AdminOfferParamsSchema, OfferListSchema, OfferSchema, SendOfferBodySchema } from './schemas/offers.js';
import {
  AdminViewingListSchema,
  AdminViewingsQuerySchema,
  ViewingExceptionBodySchema,
  ViewingExceptionParamsSchema,
  ViewingLocationInputSchema,
  ViewingLocationListSchema,
  ViewingLocationSchema,
} from './schemas/viewings.js';
import { AuditCsvSchema, AuditExportQuerySchema, AuditPageSchema, AuditQuerySchema } from './schemas/audit.js';
import { InviteStaffBodySchema, StaffInvitationSchema, StaffListSchema, StaffMemberSchema, StaffRoleBodySchema } from './schemas/staff.js';
import { ProductPageSchema, ProductSchema } from './schemas/products.js';

const P = ROUTE_PATHS;

/** The admin area's routes (under /api/admin): each checked against the staff permissions on the server. */
export const ADMIN_ROUTES = {
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
} as const;
