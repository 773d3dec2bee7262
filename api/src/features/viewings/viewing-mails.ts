import { createEvent, type EventAttributes } from 'ics';
import type { Mail } from '../mail/mailer.js';
import { mail } from '../leads/lead-mails.js';

// The e-mails of a viewing, queued with queueMail in the transaction of the change. The shopper's
// carry an .ics invitation (same UID for the whole life of the viewing, its SEQUENCE growing with
// each change, so calendars update the event instead of adding another).

export interface ViewingMailFacts {
  id: string;
  productName: string;
  marina: string;
  address: string;
  startsAt: Date;
  endsAt: Date;
  /** DD/MM/YYYY HH:mm on the marina's clock */
  label: string;
  timeZone: string;
  /** 0 when booked, then one more per reschedule or cancellation */
  sequence: number;
}

const utcParts = (date: Date): [number, number, number, number, number] => [
  date.getUTCFullYear(),
  date.getUTCMonth() + 1,
  date.getUTCDate(),
  date.getUTCHours(),
  date.getUTCMinutes(),
];

/** The viewing as an iCalendar file (RFC 5545), times in UTC, the marina's address as its location. */
export function viewingIcs(facts: ViewingMailFacts, manageLink: string, cancelled = false): string {
  const event: EventAttributes = {
    uid: `viewing-${facts.id}@boatshop`,
    sequence: facts.sequence,
    start: utcParts(facts.startsAt),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: utcParts(facts.endsAt),
    endInputType: 'utc',
    endOutputType: 'utc',
    title: `Viewing of the ${facts.productName}`,
    description: `Your viewing of the ${facts.productName} at ${facts.marina}. Reschedule or cancel: ${manageLink}`,
    location: `${facts.marina}, ${facts.address}`,
    url: manageLink,
    status: cancelled ? 'CANCELLED' : 'CONFIRMED',
    method: cancelled ? 'CANCEL' : 'PUBLISH',
    productId: 'boatshop/viewings',
  };
  const { error, value } = createEvent(event);
  if (error || !value) throw error ?? new Error('The viewing could not be written as an .ics file');
  return value;
}

function withIcs(message: Mail, ics: string): Mail {
  return { ...message, attachments: [{ filename: 'viewing.ics', content: ics, contentType: 'text/calendar; charset=utf-8' }] };
}

export function viewingBookedMail(o: {
  to: string;
  buyerName: string;
  facts: ViewingMailFacts;
  manageLink: string;
  rescheduled: boolean;
}): Mail {
  const { facts } = o;
  return withIcs(
    mail(
      o.to,
      o.rescheduled
        ? `Your viewing of the ${facts.productName} is moved to ${facts.label}`
        : `Your viewing of the ${facts.productName} on ${facts.label}`,
      [
        `Hello ${o.buyerName},`,
        `Your viewing of the ${facts.productName} is booked for ${facts.label} (${facts.timeZone} time) at ${facts.marina}, ${facts.address}.`,
        'The invitation for your calendar is attached. To reschedule or cancel, open the link below.',
      ],
      { href: o.manageLink, label: 'Reschedule or cancel' },
    ),
    viewingIcs(facts, o.manageLink),
  );
}

export function viewingCancelledMail(o: { to: string; buyerName: string; facts: ViewingMailFacts; manageLink: string }): Mail {
  return withIcs(
    mail(
      o.to,
      `Your viewing of the ${o.facts.productName} is cancelled`,
      [`Hello ${o.buyerName},`, `Your viewing of the ${o.facts.productName} on ${o.facts.label} is cancelled.`],
      null,
    ),
    viewingIcs(o.facts, o.manageLink, true),
  );
}

export function viewingReminderMail(o: { to: string; buyerName: string; facts: ViewingMailFacts; manageLink: string }): Mail {
  const { facts } = o;
  return mail(
    o.to,
    `Tomorrow: your viewing of the ${facts.productName}`,
    [
      `Hello ${o.buyerName},`,
      `A reminder: your viewing of the ${facts.productName} is on ${facts.label} (${facts.timeZone} time) at ${facts.marina}, ${facts.address}.`,
    ],
    { href: o.manageLink, label: 'Reschedule or cancel' },
  );
}

export function viewingForShopMail(o: { to: string; buyerName: string; facts: ViewingMailFacts; what: string; link: string }): Mail {
  return mail(
    o.to,
    `${o.buyerName} ${o.what} a viewing of the ${o.facts.productName}`,
    [`${o.buyerName} ${o.what} a viewing of the ${o.facts.productName} on ${o.facts.label} at ${o.facts.marina}.`],
    { href: o.link, label: 'Open the lead' },
  );
}
