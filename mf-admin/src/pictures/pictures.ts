import { atom } from 'nanostores';
import type { ProductPicture } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { MAX_PICTURES_PER_PRODUCT, PICTURE_MAX_BYTES, PICTURE_TYPES } from '@boatshop/contract/constants';
import { client } from '../api';
import { uploadPicture, UploadError } from './upload-picture';

export interface FileUpload {
  key: string;
  name: string;
  /** 0 to 1: how much of the file has been sent */
  progress: number;
  status: 'waiting' | 'uploading' | 'processing' | 'done' | 'failed';
  error: string | null;
}

export interface PicturesState {
  productId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  pictures: ProductPicture[];
  uploads: FileUpload[];
  /** what the last action did or why it failed, for the live region */
  notice: string;
}

const INITIAL: PicturesState = { productId: null, status: 'idle', pictures: [], uploads: [], notice: '' };

/** The pictures of the boat whose pictures dialog is open. */
export const $pictures = atom<PicturesState>(INITIAL);

/** Files uploading at once: each is re-encoded by the API, which takes a core while it does. */
const PARALLEL_UPLOADS = 2;

function update(productId: string, change: (state: PicturesState) => Partial<PicturesState>): void {
  const state = $pictures.get();
  if (state.productId === productId) $pictures.set({ ...state, ...change(state) });
}

function messageOf(error: unknown, fallback: string): string {
  return isApiError(error) && error.status > 0 && error.status < 500 ? error.message : fallback;
}

/** Orders saved one after the other, so the last move is the order the API keeps. */
let saving: Promise<void> = Promise.resolve();
let lastMove = 0;

export async function loadPictures(productId: string): Promise<void> {
  // A save still in flight answers for the list as it was: this read supersedes it.
  lastMove += 1;
  $pictures.set({ ...INITIAL, productId, status: 'loading' });
  try {
    const { data } = await client.admin.products.pictures(productId);
    update(productId, () => ({ status: 'ready', pictures: data }));
  } catch (error) {
    update(productId, () => ({ status: 'failed', notice: messageOf(error, 'The pictures could not be loaded.') }));
  }
}

export function closePictures(): void {
  $pictures.set(INITIAL);
}

/** The list with the picture at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item!);
  return next;
}

/**
 * Moves a picture and saves the whole order. The list shows the new order straight away; the
 * saves go out one at a time in the order of the moves (two in flight could arrive the other way
 * round), and only the last one's answer replaces the list. When the API refuses an order
 * (someone changed the pictures meanwhile) the list is read again.
 */
export function movePicture(from: number, to: number): Promise<void> {
  const { productId, pictures } = $pictures.get();
  if (!productId || from === to || to < 0 || to >= pictures.length) return saving;
  const next = moved(pictures, from, to);
  const name = next[to]!.alt || `Picture ${from + 1}`;
  update(productId, () => ({ pictures: next, notice: `${name} moved to position ${to + 1} of ${next.length}.` }));
  const move = (lastMove += 1);
  const ids = next.map((picture) => picture.id);
  saving = saving.then(async () => {
    try {
      const { data } = await client.admin.products.orderPictures(productId, ids);
      if (move === lastMove) update(productId, () => ({ pictures: data }));
    } catch (error) {
      const notice = messageOf(error, 'The new order could not be saved.');
      await loadPictures(productId);
      update(productId, () => ({ notice }));
    }
  });
  return saving;
}

export async function saveAlt(pictureId: string, alt: string): Promise<boolean> {
  const { productId } = $pictures.get();
  if (!productId) return false;
  try {
    const saved = await client.admin.products.updatePicture(productId, pictureId, alt);
    update(productId, (state) => ({
      pictures: state.pictures.map((picture) => (picture.id === saved.id ? saved : picture)),
      notice: 'Text alternative saved.',
    }));
    return true;
  } catch (error) {
    update(productId, () => ({ notice: messageOf(error, 'The text alternative could not be saved.') }));
    return false;
  }
}

export async function deletePicture(pictureId: string): Promise<void> {
  const { productId } = $pictures.get();
  if (!productId) return;
  try {
    await client.admin.products.removePicture(productId, pictureId);
    update(productId, (state) => ({ pictures: state.pictures.filter((picture) => picture.id !== pictureId), notice: 'Picture deleted.' }));
  } catch (error) {
    update(productId, () => ({ notice: messageOf(error, 'The picture could not be deleted.') }));
  }
}

/** Refusals the browser can tell before sending anything (the API checks again, by content). */
export function refusalOf(file: File, pictureCount: number): string | null {
  if (!(PICTURE_TYPES as readonly string[]).includes(file.type)) return 'Choose a JPEG, PNG, WebP or AVIF picture';
  if (file.size > PICTURE_MAX_BYTES) return 'A picture may be at most 25 MB';
  if (pictureCount >= MAX_PICTURES_PER_PRODUCT) return `A boat has at most ${MAX_PICTURES_PER_PRODUCT} pictures`;
  return null;
}

let uploadCounter = 0;

/** Uploads the files, two at a time, each with its own progress; the pictures join the list as they arrive. */
export async function uploadFiles(files: readonly File[]): Promise<void> {
  const { productId } = $pictures.get();
  if (!productId) return;
  const jobs = files.map((file) => ({
    file,
    upload: { key: `upload-${(uploadCounter += 1)}`, name: file.name, progress: 0, status: 'waiting', error: null } as FileUpload,
  }));
  update(productId, (state) => ({ uploads: [...state.uploads, ...jobs.map((job) => job.upload)] }));
  const setUpload = (key: string, change: Partial<FileUpload>) =>
    update(productId, (state) => ({ uploads: state.uploads.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)) }));

  const queue = [...jobs];
  async function worker(): Promise<void> {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const { file, upload } = job;
      const refusal = refusalOf(file, $pictures.get().pictures.length);
      if (refusal) {
        setUpload(upload.key, { status: 'failed', error: refusal });
        continue;
      }
      setUpload(upload.key, { status: 'uploading' });
      try {
        const picture = await uploadPicture(productId!, file, '', (progress) =>
          setUpload(upload.key, { progress, status: progress < 1 ? 'uploading' : 'processing' }),
        ).done;
        setUpload(upload.key, { progress: 1, status: 'done' });
        update(productId!, (state) => ({ pictures: [...state.pictures, picture], notice: `${file.name} uploaded.` }));
      } catch (error) {
        setUpload(upload.key, {
          status: 'failed',
          error: error instanceof UploadError ? error.message : 'The picture could not be uploaded.',
        });
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL_UPLOADS, jobs.length) }, worker));
}
