import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { fieldAria, FormField } from '../../components/FormField';

/** Labelled controls of the campaign form, named `campaign-<name>` so the server's field errors find them. */
interface CampaignFieldProps {
  name: string;
  label: string;
  hint?: ReactNode;
  error?: string;
}

const fieldId = (name: string) => `campaign-${name}`;

type Without<T> = Omit<T, 'id' | 'name'>;

export function TextField({ name, label, hint, error, ...input }: CampaignFieldProps & Without<InputHTMLAttributes<HTMLInputElement>>) {
  const id = fieldId(name);
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      <input name={name} {...fieldAria(id, { hint, error })} {...input} />
    </FormField>
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
}: CampaignFieldProps & Without<SelectHTMLAttributes<HTMLSelectElement>> & { describedByExtra?: string }) {
  const id = fieldId(name);
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      <select name={name} {...fieldAria(id, { hint, error, alsoDescribedBy: describedByExtra })} {...select}>
        {children}
      </select>
    </FormField>
  );
}

export function TextAreaField({ name, label, hint, error, ...textarea }: CampaignFieldProps & Without<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  const id = fieldId(name);
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      <textarea name={name} {...fieldAria(id, { hint, error })} {...textarea} />
    </FormField>
  );
}
