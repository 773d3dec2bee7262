import { Type, type Static } from '@sinclair/typebox';
import { MAX_PICTURES_PER_PRODUCT, PICTURE_ALT_MAX_LENGTH, PICTURE_FORMATS, UUID_PATTERN, type PictureFormat } from '../constants.js';
import { Nullable, Text } from './common.js';

// A boat's pictures: in Product.pictures (GET /api/products/:id) and /api/admin/products/:id/pictures.

export const PictureFormatSchema = Type.Unsafe<PictureFormat>({ type: 'string', enum: [...PICTURE_FORMATS] });

export const PictureVariantSchema = Type.Object(
  {
    format: PictureFormatSchema,
    width: Type.Integer({ minimum: 1 }),
    url: Type.String({ description: 'immutable: a new upload gets a new address' }),
  },
  { title: 'PictureVariant' },
);
export type PictureVariant = Static<typeof PictureVariantSchema>;

export const ProductPictureSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    alt: Type.String({ description: "the text alternative; empty: the boat's name stands in" }),
    src: Type.String({ description: 'the picture for any browser: the JPEG at card width, or the linked address' }),
    width: Nullable(Type.Integer({ minimum: 1, description: 'of the largest variant; null for a linked picture' })),
    height: Nullable(Type.Integer({ minimum: 1 })),
    placeholder: Nullable(Type.String({ description: 'a tiny blurred picture as a data: URI, shown until the picture loads' })),
    variants: Type.Array(PictureVariantSchema, { description: 'every stored width in every format; empty for a linked picture' }),
  },
  { title: 'ProductPicture' },
);
export type ProductPicture = Static<typeof ProductPictureSchema>;

export const ProductPictureListSchema = Type.Object({ data: Type.Array(ProductPictureSchema, { maxItems: MAX_PICTURES_PER_PRODUCT }) });
export type ProductPictureList = Static<typeof ProductPictureListSchema>;

export const PictureParamsSchema = Type.Object({ id: Type.String({ maxLength: 100 }), pictureId: Type.String({ maxLength: 100 }) });
export type PictureParams = Static<typeof PictureParamsSchema>;

export const PictureOrderBodySchema = Type.Object(
  {
    ids: Type.Array(Type.String({ pattern: UUID_PATTERN }), {
      maxItems: MAX_PICTURES_PER_PRODUCT,
      uniqueItems: true,
      description: 'every picture of the boat, each once, in the new order; the first becomes the card picture',
    }),
  },
  { additionalProperties: false },
);
export type PictureOrderBody = Static<typeof PictureOrderBodySchema>;

export const PictureAltBodySchema = Type.Object({ alt: Text(PICTURE_ALT_MAX_LENGTH) }, { additionalProperties: false });
export type PictureAltBody = Static<typeof PictureAltBodySchema>;
