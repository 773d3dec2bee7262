import { useEffect, useId, useState } from 'react';
import type { ProductVat, VatTreatment } from '@boatshop/contract';
import { isApiError, ROUTE_PATHS } from '@boatshop/contract/client';
import { VAT_TREATMENT_LABELS, VAT_TREATMENTS } from '@boatshop/contract/constants';
import { client } from '../api';

/**
 * A boat's VAT treatment in the product form, saved on its own (PUT /api/admin/vat/products/:id):
 * a new product gets "VAT paid, dealer's own stock" and the admin changes it once the product exists.
 */
export function VatTreatmentField({ productId }: { productId: string }) {
  const ids = useId();
  const [treatment, setTreatment] = useState<VatTreatment>('vat_paid_own_stock');
  const [firstUsedOn, setFirstUsedOn] = useState('');
  const [hoursSailed, setHoursSailed] = useState('');
  const [lengthM, setLengthM] = useState('');
  const [status, setStatus] = useState<'loading' | 'ready' | 'saving' | 'saved' | 'failed'>('loading');
  const [message, setMessage] = useState('');

  useEffect(() => {
    client
      .request(ROUTE_PATHS.books.productVat, { params: { id: productId } })
      .then((vat: ProductVat) => {
        setTreatment(vat.treatment);
        setFirstUsedOn(vat.firstUsedOn ?? '');
        setHoursSailed(vat.hoursSailed === null ? '' : String(vat.hoursSailed));
        setLengthM(vat.lengthCm === null ? '' : (vat.lengthCm / 100).toFixed(2));
        setStatus('ready');
      })
      .catch(() => setStatus('failed'));
  }, [productId]);

  async function save() {
    const length = lengthM.trim() === '' ? null : Math.round(Number(lengthM.replace(',', '.')) * 100);
    const hours = hoursSailed.trim() === '' ? null : Number(hoursSailed);
    if ((length !== null && !(length > 0)) || (hours !== null && !(Number.isInteger(hours) && hours >= 0))) {
      setStatus('failed');
      setMessage('Length must be a positive number of metres and hours a whole number.');
      return;
    }
    setStatus('saving');
    try {
      await client.request(ROUTE_PATHS.books.adminSetProductVat, {
        params: { id: productId },
        body: { treatment, firstUsedOn: firstUsedOn || null, hoursSailed: hours, lengthCm: length },
      });
      setStatus('saved');
      setMessage('VAT treatment saved.');
    } catch (error) {
      setStatus('failed');
      setMessage(isApiError(error) ? error.message : 'The VAT treatment could not be saved. Please try again.');
    }
  }

  return (
    <fieldset className="bs-field admin-vat" aria-busy={status === 'loading' || status === 'saving'}>
      <legend>VAT treatment</legend>
      <label htmlFor={`${ids}-treatment`}>Treatment</label>
      <select id={`${ids}-treatment`} value={treatment} onChange={(event) => setTreatment(event.target.value as VatTreatment)}>
        {VAT_TREATMENTS.map((value) => (
          <option key={value} value={value}>
            {VAT_TREATMENT_LABELS[value]}
          </option>
        ))}
      </select>
      {treatment === 'new_boat' && (
        <>
          <label htmlFor={`${ids}-first-use`}>First used on</label>
          <input id={`${ids}-first-use`} type="date" value={firstUsedOn} onChange={(event) => setFirstUsedOn(event.target.value)} />
          <label htmlFor={`${ids}-hours`}>Hours sailed</label>
          <input
            id={`${ids}-hours`}
            type="number"
            min="0"
            step="1"
            value={hoursSailed}
            onChange={(event) => setHoursSailed(event.target.value)}
          />
          <label htmlFor={`${ids}-length`}>Hull length (m)</label>
          <input id={`${ids}-length`} inputMode="decimal" value={lengthM} onChange={(event) => setLengthM(event.target.value)} />
        </>
      )}
      <button type="button" className="admin-button-secondary" onClick={() => void save()} disabled={status === 'saving'}>
        {status === 'saving' ? 'Saving…' : 'Save VAT treatment'}
      </button>
      {message && (
        <p role={status === 'failed' ? 'alert' : 'status'} className="bs-hint">
          {message}
        </p>
      )}
    </fieldset>
  );
}
