import fp from 'fastify-plugin';
import { createPaymentProvider, type PaymentProvider } from '../../features/payments/payment-provider.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The card provider chosen by config.payments; null when payments are not configured. */
    payments: PaymentProvider | null;
  }
}

export default fp(
  async (fastify) => {
    const settings = fastify.config.payments;
    fastify.decorate('payments', settings ? createPaymentProvider(settings) : null);
    if (settings) fastify.log.info({ provider: settings.provider, apiBase: settings.apiBase }, 'payments ready');
    else fastify.log.warn('payments are not configured (STRIPE_SECRET_KEY): checkout answers 503');
  },
  { name: 'payments' },
);
