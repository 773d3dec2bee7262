import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import type { SavedAddress, SavedAddressBody } from '@boatshop/contract';
import { SAVED_ADDRESS_KINDS, type SavedAddressKind } from '@boatshop/contract/constants';
import { $addressBook, deleteAddress, fetchAddresses, makeDefault, saveAddress } from '../addresses/address-book';
import { COUNTRIES, regionsOf } from '@boatshop/web-shared/countries';
import '../styles.css';
import './addresses.css';

const KIND_TITLES: Record<SavedAddressKind, string> = { shipping: 'Shipping addresses', billing: 'Billing addresses' };
const KIND_LABELS: Record<SavedAddressKind, string> = { shipping: 'Shipping', billing: 'Billing' };

const EMPTY: SavedAddressBody = {
  kind: 'shipping',
  name: '',
  address: { line1: '', city: '', state: '', postal_code: '', country: '' },
  isDefault: false,
};

const countryName = (code: string) => COUNTRIES.find((country) => country.code === code)?.name ?? code;
const regionName = (country: string, value: string) => regionsOf(country).find((region) => region.value === value)?.label ?? value;

function AddressForm({ editing, onDone }: { editing: SavedAddress | null; onDone: () => void }) {
  const [value, setValue] = useState<SavedAddressBody>(
    editing ? { kind: editing.kind, name: editing.name, address: editing.address, isDefault: editing.isDefault } : EMPTY,
  );
  const [saving, setSaving] = useState(false);
  const setAddress = (changes: Partial<SavedAddressBody['address']>) => setValue({ ...value, address: { ...value.address, ...changes } });
  const regions = regionsOf(value.address.country);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    const saved = await saveAddress(editing?.id ?? null, value);
    setSaving(false);
    if (saved) onDone();
  }

  return (
    <form
      className="account-addresses__form"
      onSubmit={(event) => void submit(event)}
      aria-label={editing ? 'Change the address' : 'New address'}
    >
      <fieldset className="account-addresses__kind">
        <legend>Use it for</legend>
        {SAVED_ADDRESS_KINDS.map((kind) => (
          <label key={kind}>
            <input type="radio" name="address-kind" checked={value.kind === kind} onChange={() => setValue({ ...value, kind })} />{' '}
            {KIND_LABELS[kind]}
          </label>
        ))}
      </fieldset>
      <TextField
        id="address-name"
        label="Name"
        autoComplete="name"
        value={value.name}
        onChange={(text) => setValue({ ...value, name: text })}
      />
      {STREET_FIELDS.map((field) => (
        <TextField
          key={field.key}
          id={field.id}
          label={field.label}
          autoComplete={field.autoComplete}
          value={value.address[field.key]}
          onChange={(text) => setAddress({ [field.key]: text })}
        />
      ))}
      <div className="bs-field">
        <label htmlFor="address-country">Country</label>
        <select
          id="address-country"
          required
          autoComplete="country"
          value={value.address.country}
          // A region belongs to one country: a new country starts its region afresh.
          onChange={(event) => setAddress({ country: event.target.value, state: '' })}
        >
          <option value="">Choose a country</option>
          {COUNTRIES.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
      </div>
      <div className="bs-field">
        <label htmlFor="address-county">County</label>
        {regions.length > 0 ? (
          <select id="address-county" required value={value.address.state} onChange={(event) => setAddress({ state: event.target.value })}>
            <option value="">Choose a county</option>
            {regions.map((region) => (
              <option key={`${region.value}-${region.label}`} value={region.value}>
                {region.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            id="address-county"
            required
            autoComplete="address-level1"
            value={value.address.state}
            onChange={(event) => setAddress({ state: event.target.value })}
          />
        )}
      </div>
      <label className="account-addresses__default">
        <input
          type="checkbox"
          checked={value.isDefault ?? false}
          onChange={(event) => setValue({ ...value, isDefault: event.target.checked })}
        />{' '}
        Use it by default at checkout
      </label>
      <div className="account-addresses__actions">
        <button type="submit" className="bs-button" disabled={saving}>
          Save address
        </button>
        <button type="button" className="bs-button account-addresses__secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function AddressCard({ address, onEdit }: { address: SavedAddress; onEdit: () => void }) {
  const { line1, postal_code, city, state, country } = address.address;
  return (
    <li className="account-addresses__card" aria-label={`${address.name}, ${line1}`}>
      <address>
        <strong>{address.name}</strong>
        <br />
        {line1}
        <br />
        {postal_code} {city}
        <br />
        {regionName(country, state)}, {countryName(country)}
      </address>
      {address.isDefault ? <p className="account-addresses__badge">Default</p> : null}
      <div className="account-addresses__actions">
        <button type="button" className="bs-button account-addresses__secondary" onClick={onEdit}>
          Edit
        </button>
        {address.isDefault ? null : (
          <button type="button" className="bs-button account-addresses__secondary" onClick={() => void makeDefault(address.id)}>
            Make default
          </button>
        )}
        <button type="button" className="bs-button account-addresses__secondary" onClick={() => void deleteAddress(address.id)}>
          Delete
        </button>
      </div>
    </li>
  );
}

/** /account/addresses: the shopper's saved shipping and billing addresses, and the default of each that checkout fills in. */
export default function Addresses() {
  const { status, addresses, notice } = useStore($addressBook);
  // null: no form; 'new': a new address; else the address being changed
  const [editing, setEditing] = useState<SavedAddress | 'new' | null>(null);

  useEffect(() => {
    void fetchAddresses();
  }, []);

  return (
    <section aria-labelledby="account-addresses-title" className="account-page account-addresses">
      <h1 id="account-addresses-title">Addresses</h1>
      <p className="account-muted">
        Checkout offers your default addresses. Changing an address here never changes an order you already placed.
      </p>
      {notice ? (
        <div role={notice.kind === 'error' ? 'alert' : 'status'} className={`account-notice account-notice--${notice.kind}`}>
          {notice.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      ) : null}
      {status === 'loading' && addresses.length === 0 ? (
        <p className="account-muted" role="status">
          Loading…
        </p>
      ) : null}
      {editing ? (
        <AddressForm
          key={editing === 'new' ? 'new' : editing.id}
          editing={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : (
        <button type="button" className="bs-button account-addresses__add" onClick={() => setEditing('new')}>
          Add an address
        </button>
      )}
      {SAVED_ADDRESS_KINDS.map((kind) => {
        const ofKind = addresses.filter((address) => address.kind === kind);
        return (
          <section key={kind} aria-labelledby={`account-addresses-${kind}`}>
            <h2 id={`account-addresses-${kind}`}>{KIND_TITLES[kind]}</h2>
            {ofKind.length === 0 ? (
              <p className="account-muted">None saved yet.</p>
            ) : (
              <ul className="account-addresses__list">
                {ofKind.map((address) => (
                  <AddressCard key={address.id} address={address} onEdit={() => setEditing(address)} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </section>
  );
}

/** The address's text rows, in the order of a postal address. */
const STREET_FIELDS = [
  { key: 'line1', id: 'address-line1', label: 'Street', autoComplete: 'address-line1' },
  { key: 'city', id: 'address-city', label: 'City', autoComplete: 'address-level2' },
  { key: 'postal_code', id: 'address-postal-code', label: 'Postal code', autoComplete: 'postal-code' },
] as const;

/** One required text field of the address form. */
function TextField(props: { id: string; label: string; autoComplete: string; value: string; onChange: (text: string) => void }) {
  return (
    <div className="bs-field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        required
        autoComplete={props.autoComplete}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}
