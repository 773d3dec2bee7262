import type { ProductPicture } from '@boatshop/contract';
import { API_BASE, CSRF_COOKIE, CSRF_HEADER } from '@boatshop/contract/constants';
import { readCookie } from '@boatshop/contract/client';

export interface UploadHandle {
  done: Promise<ProductPicture>;
  abort: () => void;
}

/** An upload the API refused or that did not arrive, with the message to show beside the file. */
export class UploadError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

function messageOf(xhr: XMLHttpRequest): string {
  try {
    const body = JSON.parse(xhr.responseText) as { error?: { message?: string } };
    if (xhr.status < 500 && body.error?.message) return body.error.message;
  } catch {
    // not JSON: a proxy's page
  }
  if (xhr.status === 413) return 'A picture may be at most 25 MB';
  return 'The picture could not be uploaded. Please try again.';
}

/**
 * One file to POST /api/admin/products/:id/pictures. XMLHttpRequest rather than fetch: only it
 * reports how much of the body has gone out (`upload.onprogress`), which each file's bar shows.
 * The csrf token goes along as the API client sends it.
 */
export function uploadPicture(productId: string, file: File, alt: string, onProgress: (fraction: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<ProductPicture>((resolve, reject) => {
    xhr.open('POST', `${API_BASE}/admin/products/${encodeURIComponent(productId)}/pictures`);
    const token = readCookie(document.cookie, CSRF_COOKIE);
    if (token) xhr.setRequestHeader(CSRF_HEADER, token);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status === 201) {
        onProgress(1);
        resolve(JSON.parse(xhr.responseText) as ProductPicture);
      } else reject(new UploadError(xhr.status, messageOf(xhr)));
    };
    xhr.onerror = () => reject(new UploadError(0, 'The shop could not be reached. Check the connection and try again.'));
    xhr.onabort = () => reject(new UploadError(0, 'Cancelled'));
    const form = new FormData();
    // The alt text first: the API reads fields that come before the file.
    if (alt) form.append('alt', alt);
    form.append('file', file, file.name);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}
