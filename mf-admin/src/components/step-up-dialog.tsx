import { useId, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $stepUp, cancelStepUp, submitStepUp } from '../staff/step-up';
import { ModalDialog } from './modal-dialog';

/** Asks for the password again when a sensitive action needs it; mounted by the pages that have such actions. */
export function StepUpDialog() {
  const { open } = useStore($stepUp);
  const titleId = useId();
  return (
    <ModalDialog open={open} onClose={cancelStepUp} labelledBy={titleId} className="admin-dialog--confirm">
      <StepUpForm titleId={titleId} />
    </ModalDialog>
  );
}

function StepUpForm({ titleId }: { titleId: string }) {
  const { busy, error } = useStore($stepUp);
  const [password, setPassword] = useState('');

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submitStepUp(password);
  }

  return (
    <form className="admin-confirm" onSubmit={submit}>
      <h2 id={titleId} className="admin-dialog__title">
        Confirm it is you
      </h2>
      <p>This action needs your password again (it then goes through for 5 minutes).</p>
      {error ? (
        <p className="bs-error admin-errors" role="alert">
          {error}
        </p>
      ) : null}
      <label>
        Password{' '}
        <input
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      <div className="admin-form__actions">
        <button type="submit" className="bs-button" disabled={busy}>
          Confirm
        </button>
        <button type="button" className="admin-button-secondary" onClick={cancelStepUp}>
          Cancel
        </button>
      </div>
    </form>
  );
}
