import type { RouteData } from '@boatshop/web-shared/route-data';

/**
 * The admin pages, as data (docs/ARCHITECTURE.md, "Module Federation"). The shell learns from
 * this data, through its own server, that /admin exists and that only administrators may open
 * it, without a shopper's browser fetching anything of this remote. `/admin/*` without a module
 * claims every path below /admin: an unknown one passes the admin guard first and then shows
 * the shell's not-found page in the admin layout.
 */
export const routes = [
  { path: '/admin', module: './Admin', access: 'admin', layout: 'dashboard', title: 'Admin' },
  { path: '/admin/orders', module: './AdminOrders', access: 'admin', layout: 'dashboard', title: 'Admin' },
  { path: '/admin/orders/:orderID', module: './AdminOrder', access: 'admin', layout: 'dashboard', title: 'Admin' },
  // sales: the leads inbox
  { path: '/admin/leads', module: './AdminLeads', access: 'admin', layout: 'dashboard', title: 'Admin' },
  { path: '/admin/leads/:leadID', module: './AdminLead', access: 'admin', layout: 'dashboard', title: 'Admin' },
  // offers: the day's viewings and the marinas' calendars
  { path: '/admin/viewings', module: './AdminViewings', access: 'admin', layout: 'dashboard', title: 'Viewings' },
  { path: '/admin/staff', module: './AdminStaff', access: 'admin', layout: 'dashboard', title: 'Staff' },
  { path: '/admin/audit', module: './AdminAudit', access: 'admin', layout: 'dashboard', title: 'Audit log' },
  // books: invoices, CSV and VAT summary
  { path: '/admin/invoices', module: './AdminInvoices', access: 'admin', layout: 'dashboard', title: 'Invoices' },
  { path: '/admin/*', access: 'admin', layout: 'dashboard', title: 'Admin' },
] as const satisfies RouteData;
