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

/**
 * A page whose message is its title (after sign-up, after asking for a reset): the title is long, so the heading rule
 * hides it, and the message is then the page's text, with what to do next.
 */
export function AccountMessage({ title, hint }: { title: string; hint: string }) {
  return (
    <AccountPage title={title}>
      <div className="account-message" data-testid="account-message">
        <p className="account-message-lead">{title}</p>
        <p>{hint}</p>
      </div>
    </AccountPage>
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
