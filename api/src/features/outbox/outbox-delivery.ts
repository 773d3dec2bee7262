import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { retryWhileDatabaseUnavailable } from '../../lib/retry-database.js';
import { eventDocumentAttachments } from '../invoices/mail-attachments.js';
import { READY_MAIL_KIND } from '../leads/lead-mails.js';
import type { Mail, Mailer } from '../mail/mailer.js';
import { loadOrderMail, type BankDetails } from './order-mail-templates.js';
import type { OrderMailPayload } from './order-mails.js';
import {
  CLAIM_SECONDS,
  claimMessage,
  isUnsent,
  listUnqueuedMessages,
  markEnqueued,
  markSent,
  releaseAfterFailure,
} from './outbox.repository.js';

export const OUTBOX_QUEUE = 'outbox.deliver';
/**
 * A delivery job still active after this long was taken by a process that died (killed, or its
 * machine lost): pg-boss hands it out again. Above the claim (CLAIM_SECONDS), below pg-boss's
 * default 15 minutes that left such an e-mail unsent for a quarter of an hour.
 */
export const OUTBOX_JOB_EXPIRE_SECONDS = CLAIM_SECONDS + 30;

/** Another attempt owns the message right now: this attempt fails and the queue retries it later. */
export class OutboxMessageBusyError extends Error {
  constructor(outboxId: string) {
    super(`outbox message ${outboxId} is being delivered by another attempt`);
  }
}

/**
 * Hands outbox rows to the job queue, the row's id as the job's id: a row handed twice (two API
 * processes, or a crash between send and mark) is still one job.
 */
export async function dispatchOutbox(db: Kysely<Database>, jobs: JobQueue): Promise<number> {
  const messages = await listUnqueuedMessages(db);
  for (const message of messages) await jobs.send(OUTBOX_QUEUE, { outboxId: message.id }, { id: message.id });
  await markEnqueued(
    db,
    messages.map((message) => message.id),
  );
  return messages.length;
}

/**
 * One delivery attempt. The claim (a conditional UPDATE) makes sure a message is sent by one
 * attempt at a time and never after it was sent; a failure releases it for the queue's retry.
 * A crash after the SMTP server accepted it and before `sent_at` is written sends it again once
 * the claim runs out (at-least-once there); the stable Message-ID lets mail clients fold the copy.
 */
export async function deliverOutboxMessage(
  db: Kysely<Database>,
  mailer: Mailer,
  publicUrl: string,
  outboxId: string,
  log: FastifyBaseLogger,
  /** the shop's account, for the deposit and reminder e-mails */
  bank: BankDetails | null = null,
): Promise<void> {
  const message = await claimMessage(db, outboxId);
  if (!message) {
    // Sent already (or gone): done. Claimed by an attempt whose claim has not run out: not done,
    // since that attempt may have died; the retry after the claim ends sends it.
    if (await isUnsent(db, outboxId)) throw new OutboxMessageBusyError(outboxId);
    return;
  }
  try {
    // `mail`: an e-mail written whole when it was queued (staff invitations, account and lead e-mails).
    let mail: Mail | null;
    if (message.kind === READY_MAIL_KIND) mail = message.payload as unknown as Mail;
    else if (message.kind === 'order_mail') {
      const payload = message.payload as unknown as OrderMailPayload;
      mail = await loadOrderMail(db, payload, publicUrl, bank);
      // books: the document the event issued, attached (rendered from the stored document, here at send time).
      if (mail) {
        const attachments = await eventDocumentAttachments(db, message.id, payload);
        if (attachments.length > 0) mail = { ...mail, attachments };
      }
    } else throw new Error(`Unknown outbox message kind ${message.kind}`);
    if (mail) await mailer.send({ ...mail, messageId: `<outbox-${message.id}@boatshop>` });
    else log.warn({ outboxId }, 'outbox message about an order that no longer exists: dropped');
  } catch (err) {
    await releaseAfterFailure(db, outboxId, err instanceof Error ? err.message : String(err));
    throw err;
  }
  // The SMTP server has it: a database restart now must not make the retry send it again. Within
  // the claim (30 × 1 s of its 60 s), so no other attempt takes the message meanwhile.
  await retryWhileDatabaseUnavailable(() => markSent(db, outboxId), { attempts: 30, delayMs: 1_000 });
}
