import { Type, type Static } from '@sinclair/typebox';
import { DATE_PATTERN, Nullable } from './common.js';
import { VAT_TREATMENTS, type VatTreatment } from '../constants.js';

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
