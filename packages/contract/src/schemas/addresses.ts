import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from './common.js';
import { NamedAddressInputSchema } from './payments.js';
import { NamedAddressSchema } from './orders.js';

// People: a shopper's address book (/api/account/addresses).

/** What a saved address is for; each kind has at most one default. */
export const SAVED_ADDRESS_KINDS = ['shipping', 'billing'] as const;
export type SavedAddressKind = (typeof SAVED_ADDRESS_KINDS)[number];

/** How many addresses one account may keep. */
export const MAX_SAVED_ADDRESSES = 20;

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
