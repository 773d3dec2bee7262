import { useEffect, useState } from 'react';
import type { ProductVat } from '@boatshop/contract';
import { ROUTE_PATHS } from '@boatshop/contract/client';
import { germanNumber, NEW_BOAT_MIN_LENGTH_CM } from '@boatshop/contract/constants';
import { formatDate } from '@boatshop/state';
import { client } from '../api';

/** What each treatment means for the buyer, in a sentence. */
const EXPLANATIONS: Record<ProductVat['treatment'], string> = {
  vat_paid_own_stock: 'The price includes VAT; businesses with a valid VAT ID in another member state pay it net.',
  margin_scheme:
    'Sold under the margin scheme for second-hand goods: the price includes VAT on the margin, which the invoice does not show.',
  new_boat:
    'A new boat under the EU rule for new means of transport: delivered to another member state it is sold without VAT here and taxed in the buyer’s country.',
  not_vat_paid: 'No EU VAT has been paid on this boat: the buyer imports it and pays the import VAT.',
};

/** The boat's VAT treatment on its page, with the facts that make a new boat new. */
export function VatTreatment({ productId }: { productId: string }) {
  const [vat, setVat] = useState<ProductVat | null>(null);
  useEffect(() => {
    const own = new AbortController();
    client
      .request(ROUTE_PATHS.books.productVat, { params: { id: productId } }, { signal: own.signal })
      .then(setVat)
      // Without the treatment the page still sells the boat: the checkout states the VAT.
      .catch(() => setVat(null));
    return () => own.abort();
  }, [productId]);
  if (!vat) return null;
  return (
    <section className="catalog-vat" aria-labelledby="catalog-vat-title">
      <h2 id="catalog-vat-title">VAT: {vat.label}</h2>
      <p>{EXPLANATIONS[vat.treatment]}</p>
      {vat.treatment === 'new_boat' && (
        <ul>
          {vat.lengthCm !== null && (
            <li>
              Length: {germanNumber(vat.lengthCm / 100, 2, 3)} m{vat.lengthCm > NEW_BOAT_MIN_LENGTH_CM ? ' (over 7,5 m)' : ''}
            </li>
          )}
          {vat.firstUsedOn && <li>First used: {formatDate(vat.firstUsedOn, 'UTC')}</li>}
          {vat.hoursSailed !== null && <li>Hours sailed: {vat.hoursSailed}</li>}
        </ul>
      )}
    </section>
  );
}
