import type { ReactNode } from 'react';
import './form-field.css';

/**
 * The ids and aria attributes that tie an input to its hint and its error (read out by screen readers);
 * `alsoDescribedBy` names one more element that explains the input (the campaign's "why is this disabled" note).
 */
export function fieldAria(id: string, { hint, error, alsoDescribedBy }: { hint?: ReactNode; error?: string; alsoDescribedBy?: string }) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return {
    id,
    'aria-describedby': [hintId, errorId, alsoDescribedBy].filter(Boolean).join(' ') || undefined,
    'aria-invalid': error ? (true as const) : undefined,
  };
}

/**
 * One labelled form field with its hint and the server's error under it (field errors show under the
 * matching field). The input itself is the child; give it `fieldAria(id, {hint, error})`.
 */
export function FormField({ id, label, hint, error, children }: { id: string; label: string; hint?: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A field's hint and the server's error about it, with the ids fieldAria points to (also for a group of fields). */
export function FieldNotes({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint ? (
        <div className="field-hint" id={`${id}-hint`}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

/** A form's errors that belong to none of its fields (rate limit, network, "activate first"), announced at once. */
export function FormAlert({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="error-notice" role="alert">
      {messages.map((m) => (
        <p key={m}>{m}</p>
      ))}
    </div>
  );
}
