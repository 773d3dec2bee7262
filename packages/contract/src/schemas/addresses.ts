import { Type, type Static } from '@sinclair/typebox';
import { SAVED_ADDRESS_KINDS, type SavedAddressKind } from '../constants.js';
import { DateTime } from './common.js';
import { NamedAddressInputSchema } from './payments.js';
import { NamedAddressSchema } from './orders.js';

// People: a shopper's address book (/api/account/addresses).

const SavedAddressKindSchema = Type.Unsafe<SavedAddressKind>({ type: 'string', enum: [...SAVED_ADDRESS_KINDS] });

export const SavedAddressSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: SavedAddressKindSchema,
    /** the default of its kind: checkout fills it in */
    isDefault: Type.Boolean(),
    name: NamedAddressSchema.properties.name,
    address: NamedAddressSchema.properties.address,
    updatedAt: DateTime(),
  },
  { title: 'SavedAddress' },
);
export type SavedAddress = Static<typeof SavedAddressSchema>;

export const SavedAddressListSchema = Type.Object({ addresses: Type.Array(SavedAddressSchema) }, { title: 'SavedAddressList' });
export type SavedAddressList = Static<typeof SavedAddressListSchema>;

/** A new or changed address: the name and address as checkout takes them, its kind, and whether it becomes the default. */
export const SavedAddressBodySchema = Type.Object(
  {
    kind: SavedAddressKindSchema,
    name: NamedAddressInputSchema.properties.name,
    address: NamedAddressInputSchema.properties.address,
    isDefault: Type.Optional(Type.Boolean({ description: 'make it the default of its kind (the first of a kind always is)' })),
  },
  { additionalProperties: false },
);
export type SavedAddressBody = Static<typeof SavedAddressBodySchema>;
