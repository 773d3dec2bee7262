import type { FastifyInstance } from 'fastify';
import { REMOTES } from '@boatshop/remotes';
import type { RouteTable } from '@boatshop/web-shared/route-data';
import { SHOP_ROUTES } from './shop-routes';

/**
 * The remotes' route data as the shell's server reads it at their default locations: each
 * remote's routes.json under `/<service>/` of `app` (mf_catalog's at /mf-catalog/routes.json),
 * from `table()` (the shop's own route data unless a test says otherwise; read per request, so a
 * test may change it). A remote missing from the table answers 404. `remotesEnv(origin)` points
 * a shell's server at these folders.
 */
export function serveRouteData(app: FastifyInstance, table: () => RouteTable = () => SHOP_ROUTES): void {
  app.get<{ Params: { service: string } }>('/:service/routes.json', async (request, reply) => {
    const remote = REMOTES.find(({ folder }) => folder === request.params.service);
    const routes = remote ? table()[remote.mfName] : undefined;
    if (!remote || !routes) return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    return { schema: 1, remote: remote.mfName, routes };
  });
}

/** MF_*_URL for every remote, each a folder of `origin` served by serveRouteData. */
export function remotesEnv(origin: string): Record<string, string> {
  return Object.fromEntries(REMOTES.map(({ folder, urlEnv }) => [urlEnv, `${origin.replace(/\/+$/, '')}/${folder}`]));
}
