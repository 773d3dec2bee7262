import { useId, useRef, useState, type DragEvent } from 'react';
import { PICTURE_TYPES } from '@boatshop/contract/constants';
import type { FileUpload } from '../pictures/pictures';

const STATUS_TEXT: Record<FileUpload['status'], string> = {
  waiting: 'Waiting',
  uploading: 'Uploading',
  processing: 'Making its sizes…',
  done: 'Done',
  failed: 'Failed',
};

/**
 * Drop several pictures at once, or choose them; each file then shows its own progress bar and
 * outcome. The zone is a labelled file input too, so it works from the keyboard.
 */
export function PictureUploader({ uploads, onFiles }: { uploads: FileUpload[]; onFiles: (files: File[]) => void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(files);
  }

  return (
    <div className="admin-uploader">
      <div
        className={dragging ? 'admin-uploader__zone admin-uploader__zone--over' : 'admin-uploader__zone'}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        data-testid="picture-drop-zone"
      >
        <p>Drop pictures here, or</p>
        <input
          ref={input}
          id={inputId}
          className="admin-visually-hidden admin-uploader__input"
          type="file"
          multiple
          accept={PICTURE_TYPES.join(',')}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            if (files.length > 0) onFiles(files);
            // The same files may be chosen again after a failure.
            if (input.current) input.current.value = '';
          }}
        />
        <label htmlFor={inputId} className="bs-button admin-uploader__choose">
          Choose pictures
        </label>
        <p className="bs-hint">JPEG, PNG, WebP or AVIF, up to 25 MB each. Location data (GPS) is removed.</p>
      </div>
      {uploads.length > 0 ? (
        <ul className="admin-uploader__files" aria-label="Uploads">
          {uploads.map((upload) => (
            <li key={upload.key} className="admin-uploader__file">
              <span className="admin-uploader__name">{upload.name}</span>
              <progress max={1} value={upload.progress} aria-label={`${upload.name} upload progress`} />
              <span className={upload.status === 'failed' ? 'bs-error' : 'admin-muted'}>
                {upload.status === 'uploading' ? `${Math.round(upload.progress * 100)} %` : STATUS_TEXT[upload.status]}
                {upload.error ? `: ${upload.error}` : ''}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
