import { Type, type Static } from '@sinclair/typebox';
import { DATE_PATTERN, Nullable, Text } from './common.js';
import { CartLineSchema } from './payments.js';
import { BUYER_TYPES, MAX_CART_LINES, VAT_TREATMENTS, type BuyerType, type VatTreatment } from '../constants.js';

// VAT (books): a product's VAT treatment as shoppers read it and the admin sets it, and the rates table.

export const VatTreatmentSchema = Type.Unsafe<VatTreatment>({
  type: 'string',
  enum: [...VAT_TREATMENTS],
  description:
    'vat_paid_own_stock: standard VAT; margin_scheme: VAT on the margin, never shown; new_boat: new means of transport; not_vat_paid: the buyer imports',
});

export const ProductVatSchema = Type.Object(
  {
    productId: Type.String({ format: 'uuid' }),
    treatment: VatTreatmentSchema,
    label: Type.String({ description: 'the treatment in words' }),
    firstUsedOn: Nullable(Type.String({ pattern: DATE_PATTERN, description: 'new boats: the day of first use' })),
    hoursSailed: Nullable(Type.Integer({ minimum: 0 })),
    lengthCm: Nullable(Type.Integer({ minimum: 1, description: 'hull length the new-boat rule reads, in centimetres' })),
  },
  { title: 'ProductVat' },
);
export type ProductVat = Static<typeof ProductVatSchema>;

export const ProductVatInputSchema = Type.Object(
  {
    treatment: VatTreatmentSchema,
    firstUsedOn: Type.Optional(Nullable(Type.String({ pattern: DATE_PATTERN }))),
    hoursSailed: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
    lengthCm: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000 }))),
  },
  { title: 'ProductVatInput', additionalProperties: false },
);
export type ProductVatInput = Static<typeof ProductVatInputSchema>;

export const VatRateSchema = Type.Object(
  {
    countryCode: Type.String({ pattern: '^[A-Z]{2}$' }),
    rateBasisPoints: Type.Integer({ minimum: 0, maximum: 10_000, description: '1900 = 19,00 %' }),
    validFrom: Type.String({ pattern: DATE_PATTERN }),
  },
  { title: 'VatRate', additionalProperties: false },
);
export type VatRate = Static<typeof VatRateSchema>;

export const VatRateListSchema = Type.Object({ data: Type.Array(VatRateSchema) }, { title: 'VatRateList' });
export type VatRateList = Static<typeof VatRateListSchema>;

export const BuyerTypeSchema = Type.Unsafe<BuyerType>({
  type: 'string',
  enum: [...BUYER_TYPES],
  description: 'consumer: a private buyer; business: a company with a VAT ID',
});

export const BuyerCheckBodySchema = Type.Object(
  {
    buyerType: BuyerTypeSchema,
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'where the boat is delivered (ISO 3166-1 alpha-2)' }),
    vatId: Type.Optional(Text(20)),
    items: Type.Array(CartLineSchema, { minItems: 1, maxItems: MAX_CART_LINES }),
  },
  { title: 'BuyerCheckBody', additionalProperties: false },
);
export type BuyerCheckBody = Static<typeof BuyerCheckBodySchema>;

export const VatLineSchema = Type.Object({
  productId: Type.String({ format: 'uuid' }),
  quantity: Type.Integer(),
  vatCase: Type.String({ description: 'standard, intra_community, new_means_of_transport, export, margin, outside_scope' }),
  rateBasisPoints: Type.Integer(),
  vatCountry: Nullable(Type.String({ description: 'whose VAT is charged; null when none is' })),
  netCents: Type.Integer(),
  vatCents: Type.Integer(),
  totalCents: Type.Integer(),
  showsVat: Type.Boolean(),
  wording: Type.String(),
});
export type VatLine = Static<typeof VatLineSchema>;

export const BuyerCheckSchema = Type.Object(
  {
    checkId: Type.String({ format: 'uuid', description: 'the check the order is placed with' }),
    buyerType: BuyerTypeSchema,
    country: Type.String(),
    vatId: Nullable(Type.String()),
    vies: Type.Unsafe<'valid' | 'invalid' | 'unavailable' | 'not_checked'>({
      type: 'string',
      enum: ['valid', 'invalid', 'unavailable', 'not_checked'],
      description: 'only valid exempts a business',
    }),
    consultationNumber: Nullable(Type.String()),
    traderName: Nullable(Type.String()),
    lines: Type.Array(VatLineSchema),
    netCents: Type.Integer(),
    vatCents: Type.Integer(),
    totalCents: Type.Integer({ description: 'what the buyer pays: gross for consumers, net for an exempt sale' }),
  },
  { title: 'BuyerCheck' },
);
export type BuyerCheck = Static<typeof BuyerCheckSchema>;

/** A document a VAT correction issued. */
const CorrectionDocumentSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  number: Type.String(),
  kind: Type.Unsafe<'invoice' | 'advance' | 'final' | 'credit_note'>({
    type: 'string',
    enum: ['invoice', 'advance', 'final', 'credit_note'],
  }),
  totalCents: Type.Integer(),
});

export const VatCorrectionSchema = Type.Object(
  {
    orderId: Type.String({ format: 'uuid' }),
    vatId: Type.String(),
    consultationNumber: Nullable(Type.String({ description: "VIES's consultation number of the check that confirmed the VAT ID" })),
    creditNotes: Type.Array(CorrectionDocumentSchema, { description: 'one per invoice issued under the unconfirmed check, in full' }),
    reissued: Type.Array(CorrectionDocumentSchema, { description: 'the same invoices again, under the confirmed VAT ID' }),
    totalCents: Type.Integer({ description: "the order's total under the confirmed VAT ID" }),
    owedCents: Type.Integer({
      minimum: 0,
      description: 'received beyond the new total: what the shop owes the buyer, paid by the next refunds without a further credit note',
    }),
  },
  { title: 'VatCorrection' },
);
export type VatCorrection = Static<typeof VatCorrectionSchema>;

export const OrderVatStatusSchema = Type.Object(
  {
    orderId: Type.String({ format: 'uuid' }),
    buyerType: Nullable(BuyerTypeSchema),
    vatId: Nullable(Type.String()),
    vies: Nullable(
      Type.Unsafe<'valid' | 'invalid' | 'unavailable' | 'not_checked'>({
        type: 'string',
        enum: ['valid', 'invalid', 'unavailable', 'not_checked'],
      }),
    ),
    consultationNumber: Nullable(Type.String()),
    correction: Nullable(
      Type.Object({ at: Type.String({ format: 'date-time' }), owedCents: Type.Integer(), settledCents: Type.Integer() }),
    ),
    correctable: Type.Boolean({ description: 'a business VAT ID VIES did not confirm, not corrected yet' }),
  },
  { title: 'OrderVatStatus' },
);
export type OrderVatStatus = Static<typeof OrderVatStatusSchema>;
