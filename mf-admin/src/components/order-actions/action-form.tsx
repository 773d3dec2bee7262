import { useState, type FormEvent, type ReactNode } from 'react';
import type { AdminOrder } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';

/** What every order action's form is given by the dialog. */
export interface ActionFormProps {
  titleId: string;
  order: AdminOrder;
  onCancel: () => void;
  /** Called with a sentence saying what was done, for the page's notice. */
  onDone: (notice: string) => void;
}

/**
 * The API's refusal as it words it; a server failure generically, except the payment service not
 * answering, whose message says what became of the money (a refund stays pending and is made once).
 */
function errorMessage(error: unknown): string {
  if (!isApiError(error)) return 'The order could not be changed. Please try again.';
  const worded = (error.status > 0 && error.status < 500) || error.code === 'PAYMENT_PROVIDER_UNAVAILABLE';
  return worded ? error.message : 'The order could not be changed. Please try again.';
}

/**
 * The submit of an action's form: the form's own check first (its message shown, nothing sent),
 * then the action; the API's refusal (a refused transition says which state refused it) is shown
 * in place, and the notice of what was done goes to the page.
 */
export function useActionSubmit(onDone: (notice: string) => void) {
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>, problem: string | null, run: () => Promise<string>) {
    event.preventDefault();
    if (problem) {
      setError(problem);
      return;
    }
    setWorking(true);
    setError(null);
    try {
      onDone(await run());
    } catch (cause) {
      setWorking(false);
      setError(errorMessage(cause));
    }
  }
  return { error, working, submit };
}

/** The frame every action's form shares: title, fields, the error in place, confirm and back. */
export function ActionFrame({
  titleId,
  title,
  confirmLabel,
  danger = false,
  backLabel = 'Back',
  focusBack = false,
  error,
  working,
  onSubmit,
  onCancel,
  children,
}: {
  titleId: string;
  title: string;
  confirmLabel: string;
  /** A money-moving or order-ending action: the confirm button says so. */
  danger?: boolean;
  backLabel?: string;
  /** A plain confirmation puts the first focus on Back, not on a field. */
  focusBack?: boolean;
  error: string | null;
  working: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form className="admin-form" noValidate onSubmit={onSubmit} aria-busy={working}>
      <h2 id={titleId} className="admin-dialog__title">
        {title}
      </h2>
      {children}
      {error ? (
        <p className="bs-error admin-errors" role="alert">
          {error}
        </p>
      ) : null}
      <div className="admin-form__actions">
        <button type="submit" className={danger ? 'admin-button-danger' : 'bs-button'} disabled={working}>
          {working ? 'Working…' : confirmLabel}
        </button>
        <button type="button" className="admin-button-secondary" onClick={onCancel} data-initial-focus={focusBack ? true : undefined}>
          {backLabel}
        </button>
      </div>
    </form>
  );
}

/** A one-line text field of an action's form. */
export function TextField({
  id,
  label,
  value,
  onChange,
  maxLength,
  required = false,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  required?: boolean;
  hint?: string;
}) {
  return (
    <div className="bs-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        value={value}
        maxLength={maxLength}
        onChange={(event) => onChange(event.target.value)}
        autoComplete="off"
        required={required}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint ? (
        <p id={`${id}-hint`} className="bs-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
