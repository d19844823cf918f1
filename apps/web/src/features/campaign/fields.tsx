import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

/**
 * Labelled controls of the campaign form. Each ties its hint and the server's error to the control
 * (aria-describedby, aria-invalid) so screen readers say why a field was refused.
 */
interface FieldFrame {
  name: string;
  label: string;
  hint?: ReactNode;
  error?: string;
}

const fieldId = (name: string) => `campaign-${name}`;
export const errorIdOf = (name: string) => `${fieldId(name)}-error`;

function describedBy(name: string, hint: ReactNode, error: string | undefined, extra?: string) {
  return [hint ? `${fieldId(name)}-hint` : null, error ? errorIdOf(name) : null, extra].filter(Boolean).join(' ') || undefined;
}

function Frame({ name, label, hint, error, children }: FieldFrame & { children: ReactNode }) {
  return (
    <div className="form-field">
      <label htmlFor={fieldId(name)}>{label}</label>
      {children}
      {hint ? (
        <div className="field-hint" id={`${fieldId(name)}-hint`}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <p className="field-error" id={errorIdOf(name)}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

type Without<T> = Omit<T, 'id' | 'name'>;

export function TextField({ name, label, hint, error, ...input }: FieldFrame & Without<InputHTMLAttributes<HTMLInputElement>>) {
  return (
    <Frame name={name} label={label} hint={hint} error={error}>
      <input id={fieldId(name)} name={name} aria-describedby={describedBy(name, hint, error)} aria-invalid={error ? true : undefined} {...input} />
    </Frame>
  );
}

export function SelectField({
  name,
  label,
  hint,
  error,
  describedByExtra,
  children,
  ...select
}: FieldFrame & Without<SelectHTMLAttributes<HTMLSelectElement>> & { describedByExtra?: string }) {
  return (
    <Frame name={name} label={label} hint={hint} error={error}>
      <select id={fieldId(name)} name={name} aria-describedby={describedBy(name, hint, error, describedByExtra)} aria-invalid={error ? true : undefined} {...select}>
        {children}
      </select>
    </Frame>
  );
}

export function TextAreaField({ name, label, hint, error, ...textarea }: FieldFrame & Without<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return (
    <Frame name={name} label={label} hint={hint} error={error}>
      <textarea id={fieldId(name)} name={name} aria-describedby={describedBy(name, hint, error)} aria-invalid={error ? true : undefined} {...textarea} />
    </Frame>
  );
}
