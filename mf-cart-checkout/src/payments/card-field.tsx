import { lazy, Suspense } from 'react';
import type { PaymentConfig } from '@boatshop/contract';
import type { CardFieldProps } from './card-payment';
import { LocalCardField } from './local-card-field';

// A separate chunk: @stripe/* is fetched only when the shop really takes payments through Stripe.
const StripeCardField = lazy(() => import('./stripe-card-field'));

/** The card field the API's payment config asks for. */
export function CardField({ config, onReady }: { config: PaymentConfig; onReady: CardFieldProps['onReady'] }) {
  if (config.provider === 'local' && config.localApiBase) {
    return <LocalCardField publishableKey={config.publishableKey} localApiBase={config.localApiBase} onReady={onReady} />;
  }
  return (
    <Suspense fallback={<p className="checkout-muted">Loading the card field…</p>}>
      <StripeCardField publishableKey={config.publishableKey} onReady={onReady} />
    </Suspense>
  );
}
