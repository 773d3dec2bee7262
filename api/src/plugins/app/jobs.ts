import fp from 'fastify-plugin';
import { AUDIT_VERIFY_QUEUE, runAuditVerification } from '../../features/audit/audit-log.js';
import { remindOverdueBalances } from '../../features/deposits/balance-reminders.js';
import { purgeExpiredData } from '../../features/housekeeping/purge.js';
import { startJobQueue, type JobQueue, type QueueCounts } from '../../features/jobs/job-queue.js';
import { createMailer } from '../../features/mail/mailer.js';
import { expirePendingOrders } from '../../features/orders/order-expiry.js';
import { settleUnsettledRefunds } from '../../features/orders/refund-settlement.js';
import { releaseExpiredHolds } from '../../features/stock/holds.js';
import { RECONCILIATION_QUEUE, reconcileLedgers } from '../../features/ledger/reconciliation.js';
import { releaseExpiredOfferHolds } from '../../features/offers/offers.repository.js';
import { remindViewings, VIEWING_REMINDER_QUEUE } from '../../features/viewings/viewing-reminders.js';
import { deliverOutboxMessage, dispatchOutbox, OUTBOX_JOB_EXPIRE_SECONDS, OUTBOX_QUEUE } from '../../features/outbox/outbox-delivery.js';
import { buildRequestedExports, PRIVACY_EXPORT_QUEUE } from '../../features/privacy/privacy-requests.js';
import { SAVED_SEARCH_ALERTS_QUEUE, sendSavedSearchAlerts } from '../../features/keep/saved-search-alerts.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job queue's counts, for /api/health and GET /api/admin/jobs; empty when jobs are off. */
    jobs: { counts(): Promise<QueueCounts[]>; queue: JobQueue | null; dispatchOutbox(): Promise<number> };
  }
}

export const EXPIRY_QUEUE = 'orders.expire-pending';
export const PURGE_QUEUE = 'housekeeping.purge';
export const REMINDER_QUEUE = 'orders.balance-reminders';
// ledger: holds that ended give their boats back; refunds of unknown outcome are asked about
export const HOLD_EXPIRY_QUEUE = 'stock.release-expired-holds';
export const SETTLE_REFUNDS_QUEUE = 'orders.settle-refunds';

/**
 * Background work on pg-boss: the outbox's e-mails, pending-order expiry (every minute), the
 * hourly purge and the overdue-balance reminders (daily and on start). The outbox is swept every JOBS outboxSweepMs for rows not yet handed to the queue,
 * which covers rows written just before a crash as well as new ones.
 */
export default fp(
  async (fastify) => {
    const { jobs: settings, orders, publicUrl } = fastify.config;
    if (!settings.enabled) {
      fastify.decorate('jobs', { counts: async () => [], queue: null, dispatchOutbox: async () => 0 });
      fastify.log.warn('the job queue is off (JOBS_ENABLED=false): e-mails wait in the outbox');
      return;
    }
    const queue = await startJobQueue({
      db: fastify.db,
      pglite: fastify.pglite,
      databaseUrl: fastify.config.databaseUrl,
      config: settings,
      log: fastify.log,
      expireInSeconds: { [OUTBOX_QUEUE]: OUTBOX_JOB_EXPIRE_SECONDS },
    });
    const mailer = createMailer(fastify.config.mail);

    await queue.work(OUTBOX_QUEUE, async (data) => {
      await deliverOutboxMessage(fastify.db, mailer, publicUrl, String(data.outboxId), fastify.log, fastify.config.deposits);
    });
    await queue.work(EXPIRY_QUEUE, async () => {
      const expired = await expirePendingOrders(fastify.db, fastify.payments, fastify.log, orders.pendingOrderTtlMinutes);
      if (expired > 0) fastify.log.info({ expired }, 'pending orders expired');
      // offers: an offer past its validity gives its boat back
      const released = await releaseExpiredOfferHolds(fastify.db);
      if (released > 0) fastify.log.info({ released }, 'expired offers released their boats');
    });
    await queue.work(PURGE_QUEUE, async () => {
      await purgeExpiredData(fastify.db);
    });
    await queue.work(REMINDER_QUEUE, async () => {
      const reminded = await remindOverdueBalances(fastify.db);
      if (reminded > 0) fastify.log.info({ reminded }, 'overdue balances reminded');
    });
    // offers: the viewing reminders, the day before (hourly: each viewing once, within 24 hours of it)
    await queue.work(VIEWING_REMINDER_QUEUE, async () => {
      const reminded = await remindViewings(fastify.db, publicUrl);
      if (reminded > 0) fastify.log.info({ reminded }, 'viewings reminded');
    });
    await queue.schedule(VIEWING_REMINDER_QUEUE, '15 * * * *');
    await queue.work(AUDIT_VERIFY_QUEUE, async () => {
      await runAuditVerification(fastify.db, fastify.log);
    });
    await queue.work(PRIVACY_EXPORT_QUEUE, async () => {
      await buildRequestedExports(fastify.db, publicUrl, fastify.log);
    });
    await queue.schedule(EXPIRY_QUEUE, '* * * * *');
    // Every minute as well as when asked: an export requested just before a crash is still built.
    await queue.schedule(PRIVACY_EXPORT_QUEUE, '* * * * *');
    // ledger: every minute, the holds whose deadline passed; every five, the refunds left unsettled.
    await queue.work(HOLD_EXPIRY_QUEUE, async () => {
      await releaseExpiredHolds(fastify.db, fastify.log);
    });
    await queue.work(SETTLE_REFUNDS_QUEUE, async () => {
      const settled = await settleUnsettledRefunds(fastify.db, fastify.payments, fastify.log);
      if (settled > 0) fastify.log.info({ settled }, 'refunds of unknown outcome settled with the payment provider');
    });
    await queue.schedule(HOLD_EXPIRY_QUEUE, '* * * * *');
    await queue.schedule(SETTLE_REFUNDS_QUEUE, '*/5 * * * *');
    // ledger: daily at 04:15 UTC, every recent order's ledger against the provider and the bank lines.
    await queue.work(RECONCILIATION_QUEUE, async () => {
      const { checked, raised } = await reconcileLedgers(fastify.db, fastify.payments, fastify.log);
      fastify.log.info({ checked, raised }, 'ledgers reconciled');
    });
    await queue.schedule(RECONCILIATION_QUEUE, '15 4 * * *');
    // Daily at 03:30 UTC: the audit log's hash chain, end to end (features/audit/audit-log.ts).
    await queue.schedule(AUDIT_VERIFY_QUEUE, '30 3 * * *');
    await queue.schedule(PURGE_QUEUE, '0 * * * *');
    // Daily at 07:00 UTC, and once now: a shop that was down at 07:00 still reminds today.
    await queue.schedule(REMINDER_QUEUE, '0 7 * * *');
    await queue.send(REMINDER_QUEUE, {});
    // find: daily at 06:00 UTC, one e-mail per saved search listing the boats new since its last alert.
    await queue.work(SAVED_SEARCH_ALERTS_QUEUE, async () => {
      const sent = await sendSavedSearchAlerts(fastify.db, { publicUrl, secret: fastify.config.alerts.unsubscribeSecret });
      if (sent > 0) fastify.log.info({ sent }, 'saved-search alerts written');
    });
    await queue.schedule(SAVED_SEARCH_ALERTS_QUEUE, '0 6 * * *');

    let sweeping: Promise<number> | null = null;
    const sweep = () => {
      sweeping ??= dispatchOutbox(fastify.db, queue).finally(() => {
        sweeping = null;
      });
      return sweeping;
    };
    const timer = setInterval(() => {
      sweep().catch((err: unknown) => fastify.log.error({ err }, 'outbox sweep failed'));
    }, settings.outboxSweepMs);
    timer.unref();

    fastify.decorate('jobs', { counts: () => queue.counts(), queue, dispatchOutbox: sweep });
    // Before the database closes (onClose): the queue's workers finish and stop polling.
    fastify.addHook('preClose', async () => {
      clearInterval(timer);
      await sweeping?.catch(() => undefined);
      await queue.stop();
      mailer.close();
    });
    fastify.log.info(
      {
        queues: [
          OUTBOX_QUEUE,
          EXPIRY_QUEUE,
          PURGE_QUEUE,
          REMINDER_QUEUE,
          PRIVACY_EXPORT_QUEUE,
          HOLD_EXPIRY_QUEUE,
          SETTLE_REFUNDS_QUEUE,
          RECONCILIATION_QUEUE,
          SAVED_SEARCH_ALERTS_QUEUE,
        ],
      },
      'job queue ready',
    );
  },
  { name: 'jobs', dependencies: ['database', 'payments'] },
);
