import { useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import type { Product } from '@boatshop/contract';
import { formatDate, formatPrice } from '@boatshop/state';
import { ConfirmDeleteDialog } from '../components/confirm-delete-dialog';
import { ProductFormDialog } from '../components/product-form-dialog';
import { PicturesDialog } from '../components/pictures-dialog';
import { ShortOrdersNote } from '../components/stock-short-badge';
import { $adminProducts, loadAdminProducts, loadMoreAdminProducts } from '../products/admin-products';
import { CATEGORY_NAMES } from '../products/category-names';
import { useCan } from '../staff/use-can';
import '../styles.css';

type FormState = { open: false } | { open: true; product?: Product };

/** /admin: the product list with add, edit and delete. The shell gives the layout and the admin guard. */
export default function Admin() {
  const { status, products, isLastPage, loadingMore, error } = useStore($adminProducts);
  const [form, setForm] = useState<FormState>({ open: false });
  const [toDelete, setToDelete] = useState<Product | null>(null);
  const [picturesOf, setPicturesOf] = useState<Product | null>(null);
  const [notice, setNotice] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusHeadingAfterDelete = useRef(false);
  const mayEdit = useCan()('catalog.write');

  useEffect(() => {
    void loadAdminProducts();
  }, []);

  // The deleted row took the focused Delete button with it, so the dialog cannot hand focus
  // back there; the heading takes it instead. In an effect, so it runs after the dialog's own
  // effect has closed it (focus cannot move out of an open modal).
  useEffect(() => {
    if (toDelete === null && focusHeadingAfterDelete.current) {
      focusHeadingAfterDelete.current = false;
      headingRef.current?.focus();
    }
  }, [toDelete]);

  return (
    <section className="admin-page" aria-labelledby="admin-title">
      <div className="admin-page__header">
        <h1 id="admin-title" ref={headingRef} tabIndex={-1}>
          Manage products
        </h1>
        {mayEdit ? (
          <button type="button" className="bs-button" onClick={() => setForm({ open: true })}>
            Add new product
          </button>
        ) : null}
      </div>

      {/* Always in the page, so screen readers announce each change of its text. */}
      <p className="admin-notice" role="status">
        {notice}
      </p>

      {status === 'loading' || status === 'idle' ? (
        <p className="admin-muted" role="status">
          Loading products…
        </p>
      ) : null}

      {status === 'failed' ? (
        <div className="bs-error admin-errors" role="alert">
          <p>{error}</p>
          <button type="button" className="admin-button-secondary" onClick={() => void loadAdminProducts()}>
            Try again
          </button>
        </div>
      ) : null}

      {status === 'ready' && products.length === 0 ? <p>No products yet. Add the first one.</p> : null}

      {products.length > 0 ? (
        // Scrolls sideways on narrow screens; focusable so keyboard users can scroll it too.
        <div className="admin-table-scroll" role="region" aria-labelledby="admin-table-caption" tabIndex={0}>
          <table className="admin-table">
            <caption id="admin-table-caption" className="admin-visually-hidden">
              Products, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Picture</th>
                <th scope="col">Name</th>
                <th scope="col">Category</th>
                <th scope="col" className="admin-table__number">
                  Price
                </th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="admin-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {products.map((product) => (
                <tr key={product.id}>
                  <td>
                    <img className="admin-table__thumb" src={product.thumbnailUrl} alt="" width={64} height={48} loading="lazy" />
                  </td>
                  <th scope="row" className="admin-table__name">
                    <Link to={`/product/${product.id}`}>{product.name}</Link>
                    <ShortOrdersNote count={product.shortOrders} />
                  </th>
                  <td>{CATEGORY_NAMES[product.category]}</td>
                  <td className="admin-table__number">{formatPrice(product.priceCents)}</td>
                  <td>
                    <time dateTime={product.createdAt}>{formatDate(product.createdAt)}</time>
                  </td>
                  <td className="admin-table__actions">
                    {mayEdit ? (
                      <>
                        <button type="button" className="admin-button-secondary" onClick={() => setForm({ open: true, product })}>
                          Edit<span className="admin-visually-hidden"> {product.name}</span>
                        </button>
                        <button type="button" className="admin-button-secondary" onClick={() => setPicturesOf(product)}>
                          Pictures<span className="admin-visually-hidden"> of {product.name}</span>
                        </button>
                        <button type="button" className="admin-button-danger" onClick={() => setToDelete(product)}>
                          Delete<span className="admin-visually-hidden"> {product.name}</span>
                        </button>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {status === 'ready' && error ? (
        <p className="bs-error admin-errors" role="alert">
          {error}
        </p>
      ) : null}

      {status === 'ready' && !isLastPage ? (
        <button
          type="button"
          className="admin-button-secondary admin-load-more"
          disabled={loadingMore}
          onClick={() => void loadMoreAdminProducts()}
        >
          {loadingMore ? 'Loading…' : 'Load more'}
        </button>
      ) : null}

      <ProductFormDialog
        open={form.open}
        product={form.open ? form.product : undefined}
        onClose={() => setForm({ open: false })}
        onSaved={(saved) => {
          setNotice(form.open && form.product ? `“${saved.name}” was saved.` : `“${saved.name}” was added.`);
          setForm({ open: false });
        }}
      />
      <PicturesDialog
        product={picturesOf}
        onClose={() => {
          setPicturesOf(null);
          // The first picture may have changed: the list's thumbnails follow it.
          void loadAdminProducts();
        }}
      />
      <ConfirmDeleteDialog
        product={toDelete}
        onClose={() => setToDelete(null)}
        onDeleted={(deleted) => {
          setNotice(`“${deleted.name}” was deleted.`);
          focusHeadingAfterDelete.current = true;
          setToDelete(null);
        }}
      />
    </section>
  );
}
