import { routes as account } from '../../../../mf-account/src/routes';
import { routes as admin } from '../../../../mf-admin/src/routes';
import { routes as cartCheckout } from '../../../../mf-cart-checkout/src/routes';
import { routes as catalog } from '../../../../mf-catalog/src/routes';
import type { RouteTable } from '@boatshop/web-shared/route-data';

/** The route data of the four remotes as their builds write it: what the shell's server serves by default. */
export const SHOP_ROUTES: RouteTable = {
  mf_catalog: catalog,
  mf_cart_checkout: cartCheckout,
  mf_account: account,
  mf_admin: admin,
};
