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
  const app = Fastify({ logger: false });

  app.post<{ Body: CheckBody }>('/check-vat-number', async (request, reply) => {
    const body = request.body ?? {};
    const countryCode = typeof body.countryCode === 'string' ? body.countryCode.toUpperCase() : '';
    const vatNumber = typeof body.vatNumber === 'string' ? body.vatNumber.replace(/\s/g, '').toUpperCase() : '';
    if (!MEMBER_STATES.has(countryCode) || !/^[0-9A-Z+*]{2,12}$/.test(vatNumber)) return reply.code(400).send(failure('INVALID_INPUT'));
    requests.push({ countryCode, vatNumber });
    if (vatNumber.endsWith('0000')) return reply.code(200).send(failure('MS_UNAVAILABLE'));
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
    close: () => app.close(),
  };
}
