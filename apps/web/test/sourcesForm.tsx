import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { CATEGORIES, type RecordDto } from '@app/shared';
import '../src/lib/i18n';
import { recordFormData } from '../src/features/records/formData';
import { RecordForm } from '../src/features/records/RecordForm';

/** The victims' add or edit form (it asks the duplicates question on every input), for the sources editor's tests. */
export function renderVictimForm(record?: RecordDto, save: (body: FormData) => Promise<unknown> = async () => undefined) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <RecordForm category={CATEGORIES.victims} record={record} submitLabel="Submit" save={save} onSaved={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The sources the form would send: its `sources` field's JSON text, parsed. */
export const sentSources = () => JSON.parse(recordFormData(CATEGORIES.victims, document.querySelector('form')!).get('sources') as string) as unknown;

export const sourceGroup = (n: number) => screen.getByRole('group', { name: `Source ${n}` });
