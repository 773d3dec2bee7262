import { useEffect, useId } from 'react';
import { useStore } from '@nanostores/react';
import type { Product } from '@boatshop/contract';
import { $pictures, closePictures, deletePicture, loadPictures, movePicture, saveAlt, uploadFiles } from '../pictures/pictures';
import { ModalDialog } from './modal-dialog';
import { PictureList } from './picture-list';
import { PictureUploader } from './picture-uploader';
import './pictures-dialog.css';

/** A boat's pictures: upload, order, text alternatives, delete. Open while `product` is set. */
export function PicturesDialog({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const titleId = useId();
  return (
    <ModalDialog open={product !== null} onClose={onClose} labelledBy={titleId} className="admin-dialog--pictures">
      {product ? <PictureManager titleId={titleId} product={product} onClose={onClose} /> : null}
    </ModalDialog>
  );
}

function PictureManager({ titleId, product, onClose }: { titleId: string; product: Product; onClose: () => void }) {
  const { status, pictures, uploads, notice } = useStore($pictures);
  useEffect(() => {
    void loadPictures(product.id);
    return closePictures;
  }, [product.id]);

  return (
    <div className="admin-pictures-dialog">
      <h2 id={titleId} className="admin-dialog__title">
        Pictures of “{product.name}”
      </h2>
      <PictureUploader uploads={uploads} onFiles={(files) => void uploadFiles(files)} />
      <p className="admin-notice" role="status">
        {notice}
      </p>
      {status === 'loading' ? <p className="admin-muted">Loading pictures…</p> : null}
      {status === 'ready' ? (
        <>
          <p className="bs-hint">
            Drag a picture to its place, or use Move up and Move down (or Alt+Arrow keys on them). The first is the card picture.
          </p>
          <PictureList
            pictures={pictures}
            productName={product.name}
            onMove={(from, to) => void movePicture(from, to)}
            onSaveAlt={saveAlt}
            onDelete={(pictureId) => void deletePicture(pictureId)}
          />
        </>
      ) : null}
      <div className="admin-form__actions">
        <button type="button" className="admin-button-secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
