import type { ReactNode } from 'react';

/** The ids and aria attributes that tie an input to its hint and its error (read out by screen readers). */
export function fieldAria(id: string, { hint, error }: { hint?: string; error?: string }) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return {
    id,
    'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
    'aria-invalid': error ? (true as const) : undefined,
  };
}

/**
 * One labelled form field with its hint and the server's error under it (spec §5: field errors show under the
 * matching field). The input itself is the child; give it `fieldAria(id, {hint, error})`.
 */
export function FormField({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: ReactNode }) {
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
