// A local stand-in for the EU Commission's VIES REST API (POST /check-vat-number), answering the
// way the real service documents: `valid` with the trader's name and address and, when the
// requester gives its own VAT ID, a `requestIdentifier` (the consultation number a tax audit
// asks for); an unavailable member state as `actionSucceed: false` with `MS_UNAVAILABLE`.
//
// Which answer a number gets (the number is the part after the country prefix):
// - ends in 9999: not valid;
// - ends in 0000: the member state's service is unavailable;
// - anything else of 2 to 12 letters or digits: valid.

import { randomBytes } from 'node:crypto';
import { EU_COUNTRIES } from '@boatshop/contract/constants';
import Fastify from 'fastify';
import { urlHost } from './listen.js';
import { refuseProduction } from './production-guard.js';

export const VIES_DEFAULTS = { port: 4030 } as const;

export interface ViesStandinOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
}

export interface RunningViesStandin {
  /** the API base: requests go to `<url>/check-vat-number` */
  url: string;
  /** every check asked of it, oldest first */
  readonly requests: { countryCode: string; vatNumber: string }[];
  /** a member state's service down (MS_UNAVAILABLE for all its numbers) or back, as VIES reports outages */
  setOutage(countryCode: string, down: boolean): void;
  close(): Promise<void>;
}

// VAT IDs spell Greece EL; XI is Northern Ireland's prefix for goods.
const MEMBER_STATES = new Set<string>([...EU_COUNTRIES.filter((country) => country !== 'GR'), 'EL', 'XI']);

interface CheckBody {
  countryCode?: unknown;
  vatNumber?: unknown;
  requesterMemberStateCode?: unknown;
  requesterNumber?: unknown;
}

const failure = (error: string) => ({ actionSucceed: false, errorWrappers: [{ error }] });

export async function startViesStandin(options: ViesStandinOptions = {}): Promise<RunningViesStandin> {
  refuseProduction('The VIES stand-in');
  const host = options.host ?? '127.0.0.1';
  const requests: { countryCode: string; vatNumber: string }[] = [];
  const outages = new Set<string>();
  const setOutage = (countryCode: string, down: boolean) => {
    if (down) outages.add(countryCode.toUpperCase());
    else outages.delete(countryCode.toUpperCase());
  };
  const app = Fastify({ logger: false });

  // Not a VIES call: how a local session or a journey takes a member state's service down and back.
  app.post<{ Body: { countryCode?: unknown; down?: unknown } }>('/_standin/outage', async (request, reply) => {
    const { countryCode, down } = request.body ?? {};
    if (typeof countryCode !== 'string' || !MEMBER_STATES.has(countryCode.toUpperCase()) || typeof down !== 'boolean') {
      return reply.code(400).send({ error: 'countryCode (a member state) and down (boolean) are required' });
    }
    setOutage(countryCode, down);
    return { countryCode: countryCode.toUpperCase(), down };
  });

  app.post<{ Body: CheckBody }>('/check-vat-number', async (request, reply) => {
    const body = request.body ?? {};
    const countryCode = typeof body.countryCode === 'string' ? body.countryCode.toUpperCase() : '';
    const vatNumber = typeof body.vatNumber === 'string' ? body.vatNumber.replace(/\s/g, '').toUpperCase() : '';
    if (!MEMBER_STATES.has(countryCode) || !/^[0-9A-Z+*]{2,12}$/.test(vatNumber)) return reply.code(400).send(failure('INVALID_INPUT'));
    requests.push({ countryCode, vatNumber });
    if (vatNumber.endsWith('0000') || outages.has(countryCode)) return reply.code(200).send(failure('MS_UNAVAILABLE'));
    const valid = !vatNumber.endsWith('9999');
    const requester = typeof body.requesterMemberStateCode === 'string' && typeof body.requesterNumber === 'string';
    return {
      countryCode,
      vatNumber,
      requestDate: new Date().toISOString(),
      valid,
      requestIdentifier: requester && valid ? `WAPI${randomBytes(6).toString('hex').toUpperCase()}` : '',
      name: valid ? `Stand-in trader ${countryCode}${vatNumber}` : '---',
      address: valid ? '1 Quai du Port\n13002 Marseille' : '---',
      traderName: '---',
      userError: valid ? 'VALID' : 'INVALID',
    };
  });

  await app.listen({ host, port: options.port ?? VIES_DEFAULTS.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${urlHost(host)}:${port}`,
    requests,
    setOutage,
    close: () => app.close(),
  };
}
