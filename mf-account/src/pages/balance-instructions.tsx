import { useState } from 'react';
import type { OrderBalance } from '@boatshop/contract';
import { formatDay, formatPrice } from '@boatshop/state';

/** In groups of four, as banks print an IBAN and an RF reference (and the e-mail does). */
function inFours(code: string): string {
  return code.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * Issue 13: what the shopper of a reserved order must transfer, where to, by when, and the
 * reference that lets the shop match the transfer to the order (copyable: a typo sends the money
 * nowhere the shop can see).
 */
export function BalanceInstructions({ balance }: { balance: OrderBalance }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const due = formatDay(balance.dueOn);

  async function copyReference() {
    try {
      await navigator.clipboard.writeText(balance.reference);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <section className="account-balance" aria-labelledby="account-balance-title">
      <h2 id="account-balance-title" className="account-order-subtitle">
        How to pay the balance
      </h2>
      {balance.overdue ? (
        <p className="account-notice account-notice--error" role="alert">
          The balance was due on {due} and has not reached us yet. Please transfer it now; if it does not arrive, the shop may cancel the
          order.
        </p>
      ) : null}
      <p>
        Please transfer the balance to the shop&apos;s account by {due}, quoting the payment reference so we can match it to your order.
      </p>
      <dl className="account-balance__details">
        <div>
          <dt>Amount</dt>
          <dd>{formatPrice(balance.amountCents)}</dd>
        </div>
        <div>
          <dt>Account holder</dt>
          <dd>{balance.accountHolder}</dd>
        </div>
        <div>
          <dt>IBAN</dt>
          <dd className="account-balance__code">{inFours(balance.iban)}</dd>
        </div>
        <div>
          <dt>BIC</dt>
          <dd className="account-balance__code">{balance.bic}</dd>
        </div>
        <div>
          <dt>Due date</dt>
          <dd>{due}</dd>
        </div>
        <div>
          <dt>Payment reference</dt>
          <dd>
            {/* Printed in groups, copied whole: banking apps take the reference without spaces. */}
            <span className="account-balance__code">{inFours(balance.reference)}</span>{' '}
            <button type="button" className="bs-button account-balance__copy" onClick={() => void copyReference()}>
              Copy reference
            </button>{' '}
            <span role="status" className="account-muted">
              {copied === 'copied'
                ? 'Reference copied.'
                : copied === 'failed'
                  ? 'Copying failed: please select the reference and copy it.'
                  : ''}
            </span>
          </dd>
        </div>
      </dl>
    </section>
  );
}
