import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PICTURE_CONTENT_TYPES, PICTURE_KEY, type PictureStorage, type StoredObject } from './picture-storage.js';

/** Pictures in a folder of the API's machine (the embedded default, `npm start`). */
export function localPictureStorage(root: string): PictureStorage {
  const fileOf = (key: string) => {
    // Keys come from our own code, but a key is a path here: never let one leave the folder.
    if (!PICTURE_KEY.test(key)) throw new Error(`Not a picture key: ${key}`);
    return path.join(root, key);
  };
  return {
    kind: 'local',
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written beside and renamed, so a reader never sees half a file.
      const partial = `${file}.${process.pid}.${Date.now()}.partial`;
      await writeFile(partial, body);
      await rename(partial, file);
    },
    async get(key): Promise<StoredObject | null> {
      const file = fileOf(key);
      try {
        const info = await stat(file);
        const extension = key.slice(key.lastIndexOf('.') + 1);
        return { body: createReadStream(file), contentType: PICTURE_CONTENT_TYPES[extension]!, contentLength: info.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(keys) {
      await Promise.all(keys.map((key) => rm(fileOf(key), { force: true })));
    },
  };
}
