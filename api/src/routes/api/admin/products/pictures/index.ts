import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  ErrorBodySchema as ErrorBody,
  isUuid,
  MAX_PICTURES_PER_PRODUCT,
  PICTURE_ALT_MAX_LENGTH,
  PICTURE_MAX_BYTES,
  ROUTES,
} from '@boatshop/contract';
import {
  addUploadedPicture,
  deletePicture,
  listPictureRows,
  orderPictures,
  rowToPicture,
  storedKeysOf,
  updatePictureAlt,
} from '../../../../../features/pictures/pictures.repository.js';
import { processPicture } from '../../../../../features/pictures/process-picture.js';
import { ApiError, badRequest, conflict, notFound } from '../../../../../lib/errors.js';

const routes = ROUTES.admin.products;
const denied = { 401: ErrorBody, 403: ErrorBody };

/** Routes under /api/admin/products/:id, next to the product's own routes. */
export const prefixOverride = '/api/admin/products';

function cleanAlt(raw: unknown): string {
  const alt = typeof raw === 'string' ? raw.trim() : '';
  if ([...alt].length > PICTURE_ALT_MAX_LENGTH)
    throw badRequest(`The text alternative may have at most ${PICTURE_ALT_MAX_LENGTH} characters`);
  if (alt.includes('\u0000')) throw badRequest('The text alternative must not contain NUL characters');
  return alt;
}

/** The file and its alt text from a multipart body; a malformed body is a 400, never a 500. */
async function readUpload(request: FastifyRequest): Promise<{ bytes: Buffer; alt: string }> {
  try {
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw badRequest('Send the picture in a field named file');
    const altField = part.fields.alt;
    const alt = cleanAlt(altField && !Array.isArray(altField) && altField.type === 'field' ? altField.value : '');
    return { bytes: await part.toBuffer(), alt };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new ApiError(413, 'PICTURE_TOO_LARGE', 'A picture may be at most 25 MB');
    }
    throw new ApiError(400, 'MALFORMED_UPLOAD', 'The upload is not a well-formed multipart/form-data body');
  }
}

/**
 * A boat's pictures: upload (one file per request, so a browser can show each file's progress),
 * order, text alternatives, deletion. admin/autohooks.ts admits the roles holding catalog.write.
 */
const productPictures: FastifyPluginAsyncTypebox = async (fastify) => {
  // Only these routes parse multipart bodies; one file of at most 25 MB, and the alt field.
  await fastify.register(multipart, { limits: { fileSize: PICTURE_MAX_BYTES, files: 1, fields: 1, fieldSize: 4096, parts: 2 } });

  async function existingProduct(id: string): Promise<string> {
    if (!isUuid(id)) throw notFound('Product not found');
    const product = await fastify.db.selectFrom('products').select('id').where('id', '=', id.toLowerCase()).executeTakeFirst();
    if (!product) throw notFound('Product not found');
    return product.id;
  }
  const pictureId = (id: string) => {
    if (!isUuid(id)) throw notFound('Picture not found');
    return id.toLowerCase();
  };

  fastify.get(
    '/:id/pictures',
    {
      config: { permission: 'catalog.read' },
      schema: {
        summary: "A boat's pictures in order (the first is the card picture)",
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.pictures.params,
        response: { [routes.pictures.status]: routes.pictures.response, ...denied, 404: ErrorBody },
      },
    },
    async (request) => {
      const productId = await existingProduct(request.params.id);
      return { data: (await listPictureRows(fastify.db, productId)).map(rowToPicture) };
    },
  );

  fastify.post(
    '/:id/pictures',
    {
      config: { permission: 'catalog.write' },
      schema: {
        summary: `Upload one picture (multipart: \`alt\`, then \`file\`; JPEG, PNG, WebP or AVIF, at most 25 MB, ${MAX_PICTURES_PER_PRODUCT} per boat)`,
        tags: ['admin'],
        security: [{ session: [] }],
        consumes: ['multipart/form-data'],
        params: routes.uploadPicture.params,
        response: {
          [routes.uploadPicture.status]: routes.uploadPicture.response,
          400: ErrorBody,
          ...denied,
          404: ErrorBody,
          409: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          422: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const productId = await existingProduct(request.params.id);
      if (!request.isMultipart()) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the picture as multipart/form-data');
      const before = await listPictureRows(fastify.db, productId);
      if (before.length >= MAX_PICTURES_PER_PRODUCT) {
        throw conflict('TOO_MANY_PICTURES', `A boat has at most ${MAX_PICTURES_PER_PRODUCT} pictures: delete one first`);
      }
      const { bytes, alt } = await readUpload(request);
      const processed = await processPicture(productId, bytes, fastify.config.pictures.maxPixels);
      if (before.some((row) => row.storage_key === processed.storageKey)) {
        throw conflict('DUPLICATE_PICTURE', 'This picture is already in the gallery');
      }
      // Files first, then the row: a row never names a file that is missing. A refused or failed
      // upload may leave files no row names; their keys are content hashes, so they harm nothing.
      for (const file of processed.files) await fastify.pictureStorage.put(file.key, file.body, file.contentType);
      const row = await addUploadedPicture(fastify.db, productId, processed, alt);
      fastify.catalogCache.clear();
      return reply.code(201).send(rowToPicture(row));
    },
  );

  fastify.put(
    '/:id/pictures/order',
    {
      config: { permission: 'catalog.write' },
      schema: {
        summary: "Put a boat's pictures in a new order (every picture, each once); the same order again changes nothing",
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.orderPictures.params,
        body: routes.orderPictures.body,
        response: {
          [routes.orderPictures.status]: routes.orderPictures.response,
          400: ErrorBody,
          ...denied,
          404: ErrorBody,
          409: ErrorBody,
        },
      },
    },
    async (request) => {
      const productId = await existingProduct(request.params.id);
      const rows = await orderPictures(fastify.db, productId, request.body.ids);
      fastify.catalogCache.clear();
      return { data: rows.map(rowToPicture) };
    },
  );

  fastify.put(
    '/:id/pictures/:pictureId',
    {
      config: { permission: 'catalog.write' },
      schema: {
        summary: "Change a picture's text alternative",
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.updatePicture.params,
        body: routes.updatePicture.body,
        response: { [routes.updatePicture.status]: routes.updatePicture.response, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request) => {
      const productId = await existingProduct(request.params.id);
      const row = await updatePictureAlt(fastify.db, productId, pictureId(request.params.pictureId), cleanAlt(request.body.alt));
      fastify.catalogCache.clear();
      return rowToPicture(row);
    },
  );

  fastify.delete(
    '/:id/pictures/:pictureId',
    {
      config: { permission: 'catalog.write' },
      schema: {
        summary: 'Delete a picture and its stored files (a boat keeps at least one picture)',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.removePicture.params,
        response: { [routes.removePicture.status]: routes.removePicture.response, ...denied, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const productId = await existingProduct(request.params.id);
      const row = await deletePicture(fastify.db, productId, pictureId(request.params.pictureId));
      fastify.catalogCache.clear();
      await fastify.pictureStorage.remove(storedKeysOf([row]));
      return reply.code(204).send(null);
    },
  );
};

export default productPictures;
