import { useId, useState } from 'react';
import type { Product } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { deleteProduct } from '../products/admin-products';
import { ModalDialog } from './modal-dialog';

interface ConfirmDeleteDialogProps {
  /** The product to delete; null when the dialog is closed. */
  product: Product | null;
  onClose: () => void;
  onDeleted: (product: Product) => void;
}

/** Asks before deleting, naming the product; Cancel has the first focus, so Enter does no harm. */
export function ConfirmDeleteDialog({ product, onClose, onDeleted }: ConfirmDeleteDialogProps) {
  const titleId = useId();
  return (
    <ModalDialog open={product !== null} onClose={onClose} labelledBy={titleId} className="admin-dialog--confirm">
      {product ? <ConfirmDelete titleId={titleId} product={product} onCancel={onClose} onDeleted={onDeleted} /> : null}
    </ModalDialog>
  );
}

function ConfirmDelete({
  titleId,
  product,
  onCancel,
  onDeleted,
}: {
  titleId: string;
  product: Product;
  onCancel: () => void;
  onDeleted: (product: Product) => void;
}) {
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setDeleting(true);
    setError(null);
    try {
      await deleteProduct(product.id);
      onDeleted(product);
    } catch (cause) {
      setDeleting(false);
      setError(
        isApiError(cause) && cause.status > 0 && cause.status < 500 ? cause.message : 'The product could not be deleted. Please try again.',
      );
    }
  }

  return (
    <div className="admin-confirm">
      <h2 id={titleId} className="admin-dialog__title">
        Delete “{product.name}”?
      </h2>
      <p>It disappears from the shop at once. Orders that include it keep their copy of it.</p>
      {error ? (
        <p className="bs-error admin-errors" role="alert">
          {error}
        </p>
      ) : null}
      <div className="admin-form__actions">
        <button type="button" className="admin-button-danger" disabled={deleting} onClick={() => void confirm()}>
          {deleting ? 'Deleting…' : 'Delete product'}
        </button>
        <button type="button" className="admin-button-secondary" onClick={onCancel} data-initial-focus>
          Cancel
        </button>
      </div>
    </div>
  );
}
