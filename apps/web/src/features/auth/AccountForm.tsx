import type { FormEvent, ReactNode } from 'react';
import { PageTitle } from '../../components/PageTitle';
import { FormAlert } from '../../components/FormField';
import './auth.css';

/** The frame of every account page: its title, then what the page shows. */
export function AccountPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="account-page">
      <PageTitle title={title} />
      {children}
    </section>
  );
}

/** An account form: the errors that belong to no field, the fields, and the submit button (off while sending). */
export function AccountForm({
  form,
  onSubmit,
  submitLabel,
  children,
}: {
  form: { general: string[]; pending: boolean };
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <form className="account-form" noValidate onSubmit={onSubmit}>
      <FormAlert messages={form.general} />
      {children}
      <button type="submit" className="btn" disabled={form.pending}>
        {submitLabel}
      </button>
    </form>
  );
}
