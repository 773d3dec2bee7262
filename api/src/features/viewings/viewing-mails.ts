import { createEvent, type EventAttributes } from 'ics';
import type { Mail } from '../mail/mailer.js';
import { mail } from '../leads/lead-mails.js';
import type { ViewingKind } from './viewings.table.js';

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
  kind: ViewingKind;
}

/** "viewing" or "sea trial", as the texts name the booking. */
const word = (kind: ViewingKind) => (kind === 'sea_trial' ? 'sea trial' : 'viewing');
const Word = (kind: ViewingKind) => (kind === 'sea_trial' ? 'Sea trial' : 'Viewing');

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
    title: `${Word(facts.kind)} of the ${facts.productName}`,
    description: `Your ${word(facts.kind)} of the ${facts.productName} at ${facts.marina}. Reschedule or cancel: ${manageLink}`,
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
  /** a guest manages the booking once signed up with this e-mail address */
  guest?: boolean;
}): Mail {
  const { facts } = o;
  const w = word(facts.kind);
  return withIcs(
    mail(
      o.to,
      o.rescheduled
        ? `Your ${w} of the ${facts.productName} is moved to ${facts.label}`
        : `Your ${w} of the ${facts.productName} on ${facts.label}`,
      [
        `Hello ${o.buyerName},`,
        `Your ${w} of the ${facts.productName} is booked for ${facts.label} (${facts.timeZone} time) at ${facts.marina}, ${facts.address}.`,
        o.guest
          ? 'The invitation for your calendar is attached. To reschedule or cancel, sign up or sign in with this e-mail address and open the link below.'
          : 'The invitation for your calendar is attached. To reschedule or cancel, open the link below.',
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
      `Your ${word(o.facts.kind)} of the ${o.facts.productName} is cancelled`,
      [`Hello ${o.buyerName},`, `Your ${word(o.facts.kind)} of the ${o.facts.productName} on ${o.facts.label} is cancelled.`],
      null,
    ),
    viewingIcs(o.facts, o.manageLink, true),
  );
}

export function viewingReminderMail(o: { to: string; buyerName: string; facts: ViewingMailFacts; manageLink: string }): Mail {
  const { facts } = o;
  return mail(
    o.to,
    `Tomorrow: your ${word(facts.kind)} of the ${facts.productName}`,
    [
      `Hello ${o.buyerName},`,
      `A reminder: your ${word(facts.kind)} of the ${facts.productName} is on ${facts.label} (${facts.timeZone} time) at ${facts.marina}, ${facts.address}.`,
    ],
    { href: o.manageLink, label: 'Reschedule or cancel' },
  );
}

export function viewingForShopMail(o: { to: string; buyerName: string; facts: ViewingMailFacts; what: string; link: string }): Mail {
  return mail(
    o.to,
    `${o.buyerName} ${o.what} a ${word(o.facts.kind)} of the ${o.facts.productName}`,
    [`${o.buyerName} ${o.what} a ${word(o.facts.kind)} of the ${o.facts.productName} on ${o.facts.label} at ${o.facts.marina}.`],
    { href: o.link, label: 'Open the lead' },
  );
}

/** A guest's link: the booking reaches the shop once it is opened; the time is held meanwhile. */
export function confirmViewingMail(o: { to: string; name: string; facts: ViewingMailFacts; link: string; heldMinutes: number }): Mail {
  const { facts } = o;
  return mail(
    o.to,
    `Confirm your ${word(facts.kind)} of the ${facts.productName}`,
    [
      `Hello ${o.name},`,
      `You asked for a ${word(facts.kind)} of the ${facts.productName} on ${facts.label} (${facts.timeZone} time) at ${facts.marina}, ${facts.address}.`,
      `Open the link below to confirm it. We hold this time for you for ${o.heldMinutes} minutes; later the link still books it if nobody else has taken it.`,
      'If you did not ask for this, ignore this e-mail: nothing is booked.',
    ],
    { href: o.link, label: `Confirm the ${word(facts.kind)}` },
  );
}
