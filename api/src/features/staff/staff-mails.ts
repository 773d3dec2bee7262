import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { escapeHtml } from '../../lib/html.js';
import type { Mail } from '../mail/mailer.js';
import { writeOutboxMessage } from '../outbox/outbox.repository.js';

const ROLE_WORDS = { owner: 'an owner', sales: 'sales', accountant: 'the accountant', editor: 'a catalogue editor' } as const;

export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/staff-invitation?token=${encodeURIComponent(token)}`;
}

export function staffInvitationMail(input: {
  to: string;
  role: keyof typeof ROLE_WORDS;
  inviter: string;
  link: string;
  ttlHours: number;
}): Mail {
  const what = `${input.inviter} invites you to work on the Boat shop as ${ROLE_WORDS[input.role]}.`;
  const how = `Sign in (or register) with this e-mail address, then open the link. It expires in ${input.ttlHours} hours.`;
  return {
    to: input.to,
    subject: 'Your invitation to the Boat shop staff',
    text: [what, '', how, input.link].join('\n'),
    html: `<p>${escapeHtml(what)}</p>\n<p>${escapeHtml(how)}</p>\n<p><a href="${escapeHtml(input.link)}">Accept the invitation</a></p>`,
  };
}

/** A ready e-mail through the outbox, written in the caller's transaction; delivered as kind `mail`. */
export async function enqueueMail(trx: Transaction<Database>, dedupeKey: string, mail: Mail): Promise<void> {
  await writeOutboxMessage(trx, { kind: 'mail', dedupeKey, payload: { ...mail } });
}
