import {
  EU_COUNTRIES,
  NEW_BOAT_MAX_HOURS,
  NEW_BOAT_MAX_MONTHS,
  NEW_BOAT_MIN_LENGTH_CM,
  type BuyerType,
  type VatTreatment,
} from '@boatshop/contract';

// Which VAT applies to one sale of one boat, decided in one pure function (decideVat) from the
// facts alone; the rates come in as numbers read from the rates table. Prices in the catalogue
// are gross in the seller's country; a consumer pays that gross price wherever VAT is due (the VAT
// inside it follows the rate that applies), an exempt sale is paid net of the seller's VAT.
// docs/adr/0030-vat-decision.md explains the choices.

/** What VIES said about the buyer's VAT ID; only 'valid' ever exempts a business (fail closed). */
export type ViesResult = 'valid' | 'invalid' | 'unavailable' | 'not_checked';

/**
 * standard: VAT of the seller's country (or the destination's for a distance sale, via OSS);
 * intra_community: exempt supply to a business with a confirmed VAT ID in another member state;
 * new_means_of_transport: exempt supply of a new boat to anyone in another member state;
 * export: exempt, the boat leaves the EU; margin: VAT on the margin, not shown;
 * outside_scope: a boat without EU VAT status, the buyer imports it.
 */
export type VatCase = 'standard' | 'intra_community' | 'new_means_of_transport' | 'export' | 'margin' | 'outside_scope';

export interface NewBoatFacts {
  /** hull length in centimetres; null when unknown (then the boat cannot be proved new) */
  lengthCm: number | null;
  /** YYYY-MM-DD of first entry into service; null for a boat never used */
  firstUsedOn: string | null;
  hoursSailed: number | null;
}

export interface VatDecisionInput {
  sellerCountry: string;
  buyerType: BuyerType;
  buyerCountry: string;
  vies: ViesResult;
  treatment: VatTreatment;
  boat: NewBoatFacts;
  /** where the boat is delivered; inside or outside the EU decides export */
  shipToCountry: string;
  /** the day of supply (YYYY-MM-DD), for the three months of the new-boat rule */
  supplyDate: string;
  /** the catalogue's gross price of what is invoiced (the whole sale, or a deposit) */
  grossCents: number;
  /** standard rate of the seller's country on the supply date, basis points */
  sellerRateBasisPoints: number;
  /** standard rate of the destination member state, when the destination is in the EU */
  destinationRateBasisPoints: number | null;
}

export interface VatDecision {
  case: VatCase;
  /** the rate charged, basis points (0 when nothing is charged) */
  rateBasisPoints: number;
  /** the country whose VAT is charged; null when none is */
  vatCountry: string | null;
  netCents: number;
  vatCents: number;
  /** what the buyer pays */
  totalCents: number;
  /** false for the margin scheme: the invoice never shows VAT */
  showsVat: boolean;
  /** EN 16931 VAT category code (S, K, G, E, O) and exemption reason code */
  categoryCode: 'S' | 'K' | 'G' | 'E' | 'O';
  exemptionReasonCode: string | null;
  /** the legal wording the invoice carries (empty for a standard sale) */
  wording: string;
}

const EU = new Set<string>(EU_COUNTRIES);

export function isEuCountry(country: string): boolean {
  return EU.has(country);
}

/** The net amount inside a gross amount at a rate, rounded to the cent. */
export function netOf(grossCents: number, rateBasisPoints: number): number {
  return Math.round((grossCents * 10_000) / (10_000 + rateBasisPoints));
}

function addMonths(day: string, months: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, date.getUTCDate()));
  // 30 November + 3 months is 28/29 February, not 2 March.
  if (target.getUTCDate() !== date.getUTCDate()) target.setUTCDate(0);
  return target.toISOString().slice(0, 10);
}

/**
 * A boat is a new means of transport when longer than 7,5 m and supplied within three months of
 * its first use or sailed for at most 100 hours. A boat never used is new; an unknown length
 * proves nothing.
 */
export function isNewMeansOfTransport(boat: NewBoatFacts, supplyDate: string): boolean {
  if (boat.lengthCm === null || boat.lengthCm <= NEW_BOAT_MIN_LENGTH_CM) return false;
  if (boat.firstUsedOn === null) return true;
  const withinMonths = supplyDate <= addMonths(boat.firstUsedOn, NEW_BOAT_MAX_MONTHS);
  const fewHours = boat.hoursSailed !== null && boat.hoursSailed <= NEW_BOAT_MAX_HOURS;
  return withinMonths || fewHours;
}

function newBoatFactsText(boat: NewBoatFacts): string {
  const parts = [`length ${((boat.lengthCm ?? 0) / 100).toFixed(2).replace('.', ',')} m`];
  if (boat.firstUsedOn === null) parts.push('not yet used');
  else parts.push(`first used on ${boat.firstUsedOn.split('-').reverse().join('/')}`);
  if (boat.hoursSailed !== null) parts.push(`${boat.hoursSailed} hours sailed`);
  return parts.join(', ');
}

export const WORDING = {
  intraCommunity:
    'Intra-Community supply exempt from VAT (Art. 138(1) Directive 2006/112/EC); reverse charge: the customer accounts for the VAT.',
  newMeansOfTransport: (country: string, boat: NewBoatFacts) =>
    `Intra-Community supply of a new means of transport exempt from VAT (Art. 138(2)(a) Directive 2006/112/EC); VAT is due in ${country} by the acquirer (Art. 2(1)(b)(ii)). New means of transport: ${newBoatFactsText(boat)}.`,
  export: 'Export supply exempt from VAT (Art. 146(1)(a) Directive 2006/112/EC).',
  margin: 'Margin scheme – Second-hand goods (Art. 313 and 325 Directive 2006/112/EC); VAT is not shown separately.',
  outsideScope: 'Boat without EU VAT status (not VAT-paid): supplied without VAT; the buyer imports it and pays the import VAT.',
};

/** Which VAT applies, at what rate, to what amounts, with what wording. Pure: no clock, no database. */
export function decideVat(input: VatDecisionInput): VatDecision {
  const { grossCents, sellerRateBasisPoints: sellerRate } = input;
  const exportSale = !isEuCountry(input.shipToCountry);
  const crossBorder = !exportSale && input.shipToCountry !== input.sellerCountry;
  const exemptNet = netOf(grossCents, sellerRate);
  const zero = { vatCents: 0, rateBasisPoints: 0, vatCountry: null };

  if (input.treatment === 'margin_scheme') {
    // The VAT inside the margin is the dealer's own business: the buyer pays the price and sees no VAT.
    const wording = exportSale ? `${WORDING.margin} ${WORDING.export}` : WORDING.margin;
    return {
      case: 'margin',
      ...zero,
      netCents: grossCents,
      totalCents: grossCents,
      showsVat: false,
      categoryCode: 'E',
      exemptionReasonCode: 'VATEX-EU-F',
      wording,
    };
  }
  if (input.treatment === 'not_vat_paid') {
    return {
      case: 'outside_scope',
      ...zero,
      netCents: grossCents,
      totalCents: grossCents,
      showsVat: true,
      categoryCode: 'O',
      exemptionReasonCode: 'VATEX-EU-O',
      wording: WORDING.outsideScope,
    };
  }
  // An exempt sale is paid net of the seller's VAT.
  const exempt = (vatCase: VatCase, categoryCode: 'G' | 'K', exemptionReasonCode: string, wording: string): VatDecision => ({
    case: vatCase,
    ...zero,
    netCents: exemptNet,
    totalCents: exemptNet,
    showsVat: true,
    categoryCode,
    exemptionReasonCode,
    wording,
  });
  if (exportSale) return exempt('export', 'G', 'VATEX-EU-G', WORDING.export);
  if (crossBorder && input.treatment === 'new_boat' && isNewMeansOfTransport(input.boat, input.supplyDate)) {
    return exempt('new_means_of_transport', 'K', 'VATEX-EU-IC', WORDING.newMeansOfTransport(input.shipToCountry, input.boat));
  }
  if (crossBorder && input.buyerType === 'business' && input.vies === 'valid' && input.buyerCountry === input.shipToCountry) {
    return exempt('intra_community', 'K', 'VATEX-EU-IC', WORDING.intraCommunity);
  }
  // Taxed: at home at the seller's rate; a distance sale to another member state (a consumer, or a
  // business whose VAT ID is not confirmed) at the destination's rate, declared through OSS.
  const rate = crossBorder ? (input.destinationRateBasisPoints ?? sellerRate) : sellerRate;
  const net = netOf(grossCents, rate);
  return {
    case: 'standard',
    rateBasisPoints: rate,
    vatCountry: crossBorder ? input.shipToCountry : input.sellerCountry,
    netCents: net,
    vatCents: grossCents - net,
    totalCents: grossCents,
    showsVat: true,
    categoryCode: 'S',
    exemptionReasonCode: null,
    wording: '',
  };
}
