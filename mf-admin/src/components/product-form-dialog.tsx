import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { Product } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { CATEGORIES, type Category } from '@boatshop/contract/constants';
import { saveProduct } from '../products/admin-products';
import { VatTreatmentField } from './vat-treatment-field';
import { CATEGORY_NAMES } from '../products/category-names';
import { centsToEuroText, parseEuroToCents } from '../products/price';
import { parseStock } from '../products/stock';
import { draftFromSpecs, parseSpecsDraft } from '../products/boat-specs-draft';
import { BoatSpecsFields } from './boat-specs-fields';
import { EuroField } from './euro-field';
import { ModalDialog } from './modal-dialog';

// TipTap is most of this remote's weight; it loads when the form first opens, not with the list.
const DescriptionEditor = lazy(() => import('./description-editor'));

interface ProductFormDialogProps {
  open: boolean;
  /** The product to edit; absent to add a new one. */
  product?: Product | undefined;
  onClose: () => void;
  onSaved: (product: Product) => void;
}

/** Add or edit a product in a modal; each opening starts from the product, or from an empty form. */
export function ProductFormDialog({ open, product, onClose, onSaved }: ProductFormDialogProps) {
  const titleId = useId();
  return (
    <ModalDialog open={open} onClose={onClose} labelledBy={titleId} className="admin-dialog--form">
      <ProductForm titleId={titleId} product={product} onCancel={onClose} onSaved={onSaved} />
    </ModalDialog>
  );
}

function ProductForm({
  titleId,
  product,
  onCancel,
  onSaved,
}: {
  titleId: string;
  product: Product | undefined;
  onCancel: () => void;
  onSaved: (product: Product) => void;
}) {
  const ids = useId();
  const [category, setCategory] = useState<Category>(product?.category ?? 'sailing-boats');
  const [name, setName] = useState(product?.name ?? '');
  const [thumbnailUrl, setThumbnailUrl] = useState(product?.thumbnailUrl ?? '');
  const [priceText, setPriceText] = useState(product ? centsToEuroText(product.priceCents) : '0');
  // Empty: built to order. An existing product shows the units shoppers can buy now.
  const [stockText, setStockText] = useState(product?.stock == null ? '' : String(product.stock));
  const [descriptionHtml, setDescriptionHtml] = useState(product?.descriptionHtml ?? '');
  const [specsDraft, setSpecsDraft] = useState(() => draftFromSpecs(product?.specs));
  const [seaTrials, setSeaTrials] = useState(product?.seaTrials ?? false);
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const errorsRef = useRef<HTMLDivElement>(null);

  // The list sits above the fields, often scrolled out of view by the time Save is pressed.
  useEffect(() => {
    if (errors.length > 0) errorsRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [errors]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const price = parseEuroToCents(priceText);
    const stock = parseStock(stockText);
    const specs = parseSpecsDraft(specsDraft);
    const problems = [...(price.ok ? [] : [price.message]), ...(stock.ok ? [] : [stock.message]), ...(specs.ok ? [] : specs.problems)];
    if (!price.ok || !stock.ok || !specs.ok) {
      setErrors(problems);
      return;
    }
    setSaving(true);
    setErrors([]);
    try {
      const saved = await saveProduct(
        { category, name, thumbnailUrl, priceCents: price.cents, stock: stock.stock, descriptionHtml, specs: specs.specs, seaTrials },
        product?.id,
      );
      onSaved(saved);
    } catch (error) {
      setSaving(false);
      if (isApiError(error) && error.details.length > 0) setErrors(error.details);
      else if (isApiError(error) && error.status > 0 && error.status < 500) setErrors([error.message]);
      else setErrors(['The product could not be saved. Please try again.']);
    }
  }

  return (
    // noValidate: the API's messages say what to fix, and a shipped picture's site path
    // (/api/images/…) is a valid image address that a browser's URL check would refuse.
    <form className="admin-form" noValidate onSubmit={(event) => void submit(event)} aria-busy={saving}>
      <h2 id={titleId} className="admin-dialog__title">
        {product ? 'Edit product' : 'Add new product'}
      </h2>

      {errors.length > 0 ? (
        <div className="bs-error admin-errors" role="alert" ref={errorsRef}>
          <p>The product was not saved:</p>
          <ul>
            {errors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <div className="bs-field">
        <label htmlFor={`${ids}-category`}>Category</label>
        <select id={`${ids}-category`} value={category} onChange={(event) => setCategory(event.target.value as Category)}>
          {CATEGORIES.map((value) => (
            <option key={value} value={value}>
              {CATEGORY_NAMES[value]}
            </option>
          ))}
        </select>
      </div>

      <div className="bs-field">
        <label htmlFor={`${ids}-name`}>Name</label>
        <input
          id={`${ids}-name`}
          type="text"
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          minLength={3}
          maxLength={120}
          autoComplete="off"
        />
      </div>

      <div className="bs-field">
        <label htmlFor={`${ids}-image`}>Image URL</label>
        <input
          id={`${ids}-image`}
          type="url"
          value={thumbnailUrl}
          onChange={(event) => setThumbnailUrl(event.target.value)}
          required
          placeholder="https://"
          autoComplete="off"
        />
      </div>

      {/* The field starts at 0: typing a price replaces it, not appends to it. */}
      <EuroField id={`${ids}-price`} label="Price" value={priceText} onChange={setPriceText} min="0" hint="In euros, up to 2 decimals." />

      <div className="bs-field">
        <label htmlFor={`${ids}-stock`}>Stock</label>
        <input
          id={`${ids}-stock`}
          type="number"
          inputMode="numeric"
          min="0"
          step="1"
          value={stockText}
          onChange={(event) => setStockText(event.target.value)}
          aria-describedby={`${ids}-stock-hint`}
        />
        <p id={`${ids}-stock-hint`} className="bs-hint">
          Units shoppers can buy now (1 for a used boat). Leave empty for a model built to order.
        </p>
      </div>

      <div className="bs-field">
        <span id={`${ids}-description`} className="bs-label">
          Description
        </span>
        <Suspense
          fallback={
            <p className="admin-editor__loading" role="status">
              Loading editor…
            </p>
          }
        >
          <DescriptionEditor initialHtml={product?.descriptionHtml ?? ''} onChange={setDescriptionHtml} labelId={`${ids}-description`} />
        </Suspense>
      </div>

      <BoatSpecsFields value={specsDraft} onChange={setSpecsDraft} />

      <div className="bs-field">
        <label className="admin-choice">
          <input type="checkbox" checked={seaTrials} onChange={(event) => setSeaTrials(event.target.checked)} />
          Sea trials: shoppers may book a sea trial of this boat
        </label>
        <p className="bs-hint">Booked at the marina where the boat lies, for that marina&apos;s sea trial length.</p>
      </div>

      {product && <VatTreatmentField productId={product.id} />}

      <div className="admin-form__actions">
        <button type="submit" className="bs-button" disabled={saving}>
          {saving ? 'Saving…' : product ? 'Save changes' : 'Add product'}
        </button>
        <button type="button" className="admin-button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
