import { useEffect, useState } from 'react';
import type { NamedAddress, SavedAddress, SavedAddressKind } from '@boatshop/contract';
import { ROUTE_PATHS } from '@boatshop/contract/client';
import { client } from '../api';

/**
 * The shopper's address book at checkout: the default shipping and billing addresses fill the form
 * as soon as they arrive (fields the shopper already typed into are left alone), and a choice lists
 * the other saved ones. The order copies what the form holds, so a later change in the address
 * book never touches it.
 */
export function SavedAddresses({
  shipping,
  billing,
  onShipping,
  onBilling,
}: {
  shipping: NamedAddress;
  billing: NamedAddress;
  onShipping: (value: NamedAddress) => void;
  onBilling: (value: NamedAddress) => void;
}) {
  const [saved, setSaved] = useState<SavedAddress[]>([]);

  useEffect(() => {
    let active = true;
    client
      .request(ROUTE_PATHS.addresses.list, {})
      .then(({ addresses }) => {
        if (!active) return;
        setSaved(addresses);
        const fillDefault = (kind: SavedAddressKind, current: NamedAddress, set: (value: NamedAddress) => void) => {
          const chosen = addresses.find((address) => address.kind === kind && address.isDefault);
          const untouched = current.name === '' && Object.values(current.address).every((field) => field === '');
          if (chosen && untouched) set({ name: chosen.name, address: chosen.address });
        };
        fillDefault('shipping', shipping, onShipping);
        fillDefault('billing', billing, onBilling);
      })
      // Without the address book the shopper types the addresses, as before.
      .catch((error: unknown) => console.error('Loading the saved addresses failed', error));
    return () => {
      active = false;
    };
    // Once, when the page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (saved.length === 0) return null;

  const label = (address: SavedAddress) =>
    `${address.name}, ${address.address.line1}, ${address.address.postal_code} ${address.address.city}, ${address.address.country}${
      address.isDefault ? ' (default)' : ''
    }`;
  const picker = (kind: SavedAddressKind, legend: string, set: (value: NamedAddress) => void) => {
    const ofKind = saved.filter((address) => address.kind === kind);
    if (ofKind.length === 0) return null;
    return (
      <div className="bs-field checkout-field checkout-field--wide">
        <label htmlFor={`checkout-saved-${kind}`}>{legend}</label>
        <select
          id={`checkout-saved-${kind}`}
          // The default is what the form was filled with.
          defaultValue={ofKind.find((address) => address.isDefault)?.id ?? ''}
          onChange={(event) => {
            const chosen = ofKind.find((address) => address.id === event.target.value);
            if (chosen) set({ name: chosen.name, address: chosen.address });
          }}
        >
          <option value="">Choose a saved address</option>
          {ofKind.map((address) => (
            <option key={address.id} value={address.id}>
              {label(address)}
            </option>
          ))}
        </select>
      </div>
    );
  };

  return (
    <fieldset className="checkout-fieldset checkout-saved-addresses">
      <legend>Your saved addresses</legend>
      <p className="checkout-muted">Your default addresses are filled in below. Manage them under Addresses in your account.</p>
      {picker('shipping', 'Ship to a saved address', onShipping)}
      {picker('billing', 'Bill to a saved address', onBilling)}
    </fieldset>
  );
}
