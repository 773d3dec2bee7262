import { useStore } from '@nanostores/react';
import { formatPrice } from '@boatshop/state';
import { $cartNotices, $cartRefreshStatus, dismissCartNotices, type CartNotice } from '../cart/cart-notices';
import './cart-notices.css';

export const NOT_CHECKED = 'The prices in your cart could not be checked right now. They are checked again when you pay.';

export function noticeText(notice: CartNotice): string {
  switch (notice.kind) {
    case 'price-changed':
      return `The price of ${notice.name} changed from ${formatPrice(notice.oldPriceCents)} to ${formatPrice(notice.newPriceCents)}.`;
    case 'no-longer-sold':
      return `${notice.name} is no longer sold and was removed from your cart.`;
    case 'sold':
      return `${notice.name} has just been sold to another buyer and was removed from your cart.`;
    case 'reserved':
      return `${notice.name} has just been reserved by another buyer. It cannot be paid for unless the reservation is released.`;
  }
}

/**
 * What the last cart refresh found. The live region is always in the page, even empty, so a
 * screen reader announces the messages when they arrive; the dismiss button sits outside it so
 * it is not read out with them.
 */
export function CartNotices() {
  const notices = useStore($cartNotices);
  const failed = useStore($cartRefreshStatus) === 'failed';
  const shown = notices.length > 0 || failed;
  return (
    <div className={shown ? 'checkout-notices checkout-notices--shown' : 'checkout-notices'}>
      <div role="status" className="checkout-notices-messages">
        {notices.map((notice) => (
          <p key={`${notice.kind}-${notice.productId}`}>{noticeText(notice)}</p>
        ))}
        {failed ? <p>{NOT_CHECKED}</p> : null}
      </div>
      {shown ? (
        <button type="button" className="checkout-notices-dismiss" aria-label="Dismiss cart notices" onClick={dismissCartNotices}>
          Dismiss
        </button>
      ) : null}
    </div>
  );
}
