import { useId, type JSX } from 'react';
import type { AdminOrder, AdminOrderAction } from '@boatshop/contract';
import { ModalDialog } from './modal-dialog';
import type { ActionFormProps } from './order-actions/action-form';
import { CancelForm } from './order-actions/cancel-form';
import { DeliverForm } from './order-actions/deliver-form';
import { RefundForm } from './order-actions/refund-form';
import { ShipForm } from './order-actions/ship-form';
import { TransferForm } from './order-actions/transfer-form';

interface OrderActionDialogProps {
  order: AdminOrder;
  /** The action to confirm; null when the dialog is closed. */
  action: AdminOrderAction | null;
  onClose: () => void;
  /** Called with a sentence saying what was done, for the page's notice. */
  onDone: (notice: string) => void;
}

/** One form per action; a form with fields gets the wide dialog, a plain confirmation the narrow one. */
const FORMS: Record<AdminOrderAction, { Form: (props: ActionFormProps) => JSX.Element; wide: boolean }> = {
  ship: { Form: ShipForm, wide: true },
  deliver: { Form: DeliverForm, wide: false },
  cancel: { Form: CancelForm, wide: false },
  refund: { Form: RefundForm, wide: true },
  record_transfer: { Form: TransferForm, wide: true },
};

/**
 * Every order action asks first, naming the order and the amount at stake. The API's answer
 * (a refused transition says which state refused it) is shown in the dialog, in place.
 */
export function OrderActionDialog({ order, action, onClose, onDone }: OrderActionDialogProps) {
  const titleId = useId();
  const chosen = action ? FORMS[action] : null;
  return (
    <ModalDialog
      open={action !== null}
      onClose={onClose}
      labelledBy={titleId}
      className={chosen?.wide === false ? 'admin-dialog--confirm' : undefined}
    >
      {chosen ? <chosen.Form key={action} titleId={titleId} order={order} onCancel={onClose} onDone={onDone} /> : null}
    </ModalDialog>
  );
}
