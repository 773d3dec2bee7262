import type { InputHTMLAttributes } from 'react';
import { useEffect, useId, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $userErr, resetUserState } from '../identity/identity';
import './login-form.css';

/**
 * What every identity form page holds: the API's errors and a busy flag while a request runs.
 * Errors belong to this visit of the page, not to the page the visitor came from or goes to,
 * so they are cleared on arrival and on leaving.
 */
export function useIdentityForm() {
  const errors = useStore($userErr);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    resetUserState();
    return resetUserState;
  }, []);
  return { errors, busy, setBusy };
}

/** The identity pages' error list, above the form: read out as soon as it appears. */
export function ErrorList({ errors }: { errors: string[] }) {
  if (errors.length === 0) return null;
  return (
    <div role="alert">
      <ul className="bs-error account-auth__errors">
        {errors.map((error) => (
          <li key={error}>{error}</li>
        ))}
      </ul>
    </div>
  );
}

/** A labelled input with an optional hint tied to it for screen readers. */
export function Field({ label, hint, ...input }: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="bs-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? hintId : undefined} {...input} />
      {hint ? (
        <p id={hintId} className="bs-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A new password and its confirmation, as the reset link's page and the dashboard's change form
 * both ask for them (the API checks the policy the hint names; the forms check that they match).
 */
export function NewPasswordFields(props: {
  password: string;
  confirmPassword: string;
  onPassword: (value: string) => void;
  onConfirmPassword: (value: string) => void;
}) {
  return (
    <>
      <Field
        label="New Password"
        type="password"
        name="password"
        autoComplete="new-password"
        required
        hint="At least 8 characters, not your e-mail address and not a common password."
        value={props.password}
        onChange={(event) => props.onPassword(event.target.value)}
      />
      <Field
        label="Confirm New Password"
        type="password"
        name="confirmPassword"
        autoComplete="new-password"
        required
        value={props.confirmPassword}
        onChange={(event) => props.onConfirmPassword(event.target.value)}
      />
    </>
  );
}

/** Where a page sends the visitor to /login with a note to show there (e.g. "we sent an e-mail"). */
export interface LoginNotice {
  notice: string;
}

export function readLoginNotice(state: unknown): string | null {
  const notice = (state as Partial<LoginNotice> | null)?.notice;
  return typeof notice === 'string' ? notice : null;
}
