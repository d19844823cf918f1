import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api';
import { formErrors } from '../../lib/formErrors';

/**
 * Submits an account form as JSON and splits a failure into errors under the named fields and the rest.
 * Native validation is off; the server's messages are shown as they come.
 */
export function useAccountForm<T>(fields: readonly string[], send: (values: Record<string, string>) => Promise<T>) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [lastError, setLastError] = useState<ApiError | null>(null);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>, onSuccess: (result: T, values: Record<string, string>) => void) => {
    event.preventDefault();
    if (pending) return;
    const data = new FormData(event.currentTarget);
    const values = Object.fromEntries(fields.map((f) => [f, String(data.get(f) ?? '')]));
    setErrors({});
    setGeneral([]);
    setLastError(null);
    setPending(true);
    try {
      const result = await send(values);
      setPending(false);
      onSuccess(result, values);
    } catch (err) {
      setPending(false);
      if (err instanceof ApiError) setLastError(err);
      const split = formErrors(err, fields);
      const fieldErrors = split.fields as Record<string, string>;
      setErrors(fieldErrors);
      setGeneral(split.general);
      const first = fields.find((f) => fieldErrors[f]);
      if (first) document.getElementById(`account-${first}`)?.focus();
    }
  };

  return { errors, general, lastError, pending, onSubmit };
}
