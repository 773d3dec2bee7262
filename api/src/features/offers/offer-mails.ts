import type { Mail } from '../mail/mailer.js';
import { mail } from '../leads/lead-mails.js';
import { formatEuro } from '../../lib/money.js';

// The e-mails of an offer, queued with queueMail (features/leads/lead-mails.ts) in the
// transaction of the change.

/** YYYY-MM-DD as the pages show a day: DD/MM/YYYY. */
export const dayOf = (isoDay: string) => isoDay.split('-').reverse().join('/');

export function offerSentMail(o: {
  to: string;
  buyerName: string;
  productName: string;
  priceCents: number;
  validUntil: string;
  conditions: string;
  link: string;
  hasAccount: boolean;
}): Mail {
  return mail(
    o.to,
    `Your offer for the ${o.productName}`,
    [
      `Hello ${o.buyerName},`,
      `The Boat shop offers you the ${o.productName} for ${formatEuro(o.priceCents)}, valid until ${dayOf(o.validUntil)}.`,
      ...(o.conditions ? [`Conditions: ${o.conditions}`] : []),
      o.hasAccount
        ? 'You can accept it, decline it or make a counter-offer in your account, under Messages.'
        : 'To answer, sign up with this e-mail address and confirm it: the offer is then under Messages in your account.',
    ],
    { href: o.link, label: 'Open the offer' },
  );
}

export function offerAnsweredMail(o: {
  to: string;
  buyerName: string;
  productName: string;
  answer: 'accepted' | 'declined' | 'countered';
  priceCents: number;
  message: string | null;
  link: string;
}): Mail {
  const said = {
    accepted: `${o.buyerName} accepted the offer of ${formatEuro(o.priceCents)} for the ${o.productName}. The boat is held for them until the offer expires.`,
    declined: `${o.buyerName} declined the offer of ${formatEuro(o.priceCents)} for the ${o.productName}.`,
    countered: `${o.buyerName} made a counter-offer of ${formatEuro(o.priceCents)} for the ${o.productName}.`,
  }[o.answer];
  return mail(o.to, `${o.buyerName} ${o.answer} the offer for the ${o.productName}`, [said, ...(o.message ? [o.message] : [])], {
    href: o.link,
    label: 'Open the lead',
  });
}

export function counterAnsweredMail(o: {
  to: string;
  buyerName: string;
  productName: string;
  accepted: boolean;
  counterCents: number;
  offerCents: number;
  validUntil: string;
  link: string;
}): Mail {
  return mail(
    o.to,
    o.accepted ? `Your counter-offer for the ${o.productName} is accepted` : `Your counter-offer for the ${o.productName}`,
    [
      `Hello ${o.buyerName},`,
      o.accepted
        ? `The Boat shop accepted your counter-offer of ${formatEuro(o.counterCents)} for the ${o.productName}. The boat is held for you until ${dayOf(o.validUntil)}: pay the deposit or the price from your account to reserve it.`
        : `The Boat shop cannot accept your counter-offer of ${formatEuro(o.counterCents)}. Its offer of ${formatEuro(o.offerCents)} stands until ${dayOf(o.validUntil)}.`,
    ],
    { href: o.link, label: 'Open the offer' },
  );
}
