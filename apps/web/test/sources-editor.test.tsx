import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { sourcesSchema, type Source } from '@app/shared';
import { ApiError } from '../src/lib/api';
import { emptyDraft, placeSourceError, serialiseSources, toDraft } from '../src/features/records/sourceDrafts';
import { testRecord } from './fixtures';
import { session } from '../src/lib/session';
import { signIn } from './helpers';
import { renderVictimForm, sentSources, sourceGroup } from './sourcesForm';

/** The sources editor of the record form: what it sends, what it keeps of stored sources, where errors show. */
const WITNESS: Source = { kind: 'witness', title: 'Testimony of test witness Q', note: 'Test witness lives at test address 7', withheld: true };
const REPORT: Source = { kind: 'media', title: 'Test report', publisher: 'Test Daily', date: '2021-03', url: 'https://example.org/test-report', language: 'en', note: 'Test note' };

describe('sources editor', () => {
  afterEach(cleanup);

  it('sends the stored sources back exactly, withheld testimony included, when an edit leaves them alone', () => {
    renderVictimForm(testRecord({ category: 'victims', sources: [WITNESS, REPORT] }));
    expect(within(sourceGroup(1)).getByLabelText('Kind of source')).toHaveValue('witness');
    expect(within(sourceGroup(1)).getByLabelText(/Withheld for the witness's safety/)).toBeChecked();
    expect(within(sourceGroup(2)).getByLabelText('Link')).toHaveValue(REPORT.url);
    expect(sentSources()).toEqual([WITNESS, REPORT]);
    // The same text the server parses back to the same list.
    expect(sourcesSchema.parse(JSON.stringify(sentSources()))).toEqual([WITNESS, REPORT]);
  });

  it('locks a stored withheld testimony for a contributor (only staff may make it public), not for an admin', () => {
    signIn('contributor-1', 'contributor');
    renderVictimForm(testRecord({ category: 'victims', sources: [WITNESS, REPORT] }));
    const box = within(sourceGroup(1)).getByLabelText(/Withheld for the witness's safety/);
    expect(box).toBeChecked();
    expect(box).toBeDisabled();
    expect(box).toHaveAccessibleDescription('Only an admin can make it public.');
    expect(sentSources()).toEqual([WITNESS, REPORT]);
    cleanup();
    signIn('admin-1', 'admin');
    renderVictimForm(testRecord({ category: 'victims', sources: [WITNESS, REPORT] }));
    expect(within(sourceGroup(1)).getByLabelText(/Withheld for the witness's safety/)).toBeEnabled();
    session.clear();
  });

  it('serialises drafts: empty inputs left out, the title always, withheld only for a witness', () => {
    expect(serialiseSources([toDraft(WITNESS, 0), toDraft(REPORT, 1)])).toBe(JSON.stringify([WITNESS, REPORT]));
    expect(serialiseSources([emptyDraft(0)])).toBe('[{"kind":"media","title":""}]');
    expect(serialiseSources([{ ...toDraft(WITNESS, 0), kind: 'ngo' }])).toBe('[{"kind":"ngo","title":"Testimony of test witness Q","note":"Test witness lives at test address 7"}]');
    expect(serialiseSources([])).toBe('[]');
  });

  it('adds and removes sources by keyboard, moving the focus and announcing each change', async () => {
    const user = userEvent.setup();
    renderVictimForm();
    expect(sentSources()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Add a source' }));
    expect(within(sourceGroup(1)).getByLabelText('Kind of source')).toHaveFocus();
    expect(within(screen.getByRole('group', { name: 'Sources' })).getByRole('status')).toHaveTextContent('Source 1 added.');
    // The form re-renders on every input event (the duplicates question): the chosen kind must survive it.
    await user.selectOptions(within(sourceGroup(1)).getByLabelText('Kind of source'), 'witness');
    expect(within(sourceGroup(1)).getByLabelText('Kind of source')).toHaveValue('witness');
    await user.type(within(sourceGroup(1)).getByLabelText('Source title'), 'Test testimony (test only)');
    await user.click(within(sourceGroup(1)).getByLabelText(/Withheld/));
    await user.click(screen.getByRole('button', { name: 'Add a source' }));
    await user.type(within(sourceGroup(2)).getByLabelText('Source title'), 'Test article (test only)');
    await user.type(within(sourceGroup(2)).getByLabelText('Link'), 'https://example.org/test');
    expect(within(sourceGroup(2)).queryByLabelText(/Withheld/)).toBeNull();
    expect(sentSources()).toEqual([
      { kind: 'witness', title: 'Test testimony (test only)', withheld: true },
      { kind: 'media', title: 'Test article (test only)', url: 'https://example.org/test' },
    ]);
    // Removing the first: the second becomes source 1 and takes the focus; removing the last: the add button does.
    within(sourceGroup(1)).getByRole('button', { name: 'Remove source 1' }).focus();
    await user.keyboard('{Enter}');
    expect(within(screen.getByRole('group', { name: 'Sources' })).getByRole('status')).toHaveTextContent('Source 1 removed.');
    expect(within(sourceGroup(1)).getByLabelText('Source title')).toHaveValue('Test article (test only)');
    expect(within(sourceGroup(1)).getByLabelText('Kind of source')).toHaveFocus();
    await user.click(within(sourceGroup(1)).getByRole('button', { name: 'Remove source 1' }));
    expect(screen.getByRole('button', { name: 'Add a source' })).toHaveFocus();
    expect(sentSources()).toEqual([]);
  });

  it("shows the server's error beside the input it names, focused, and keeps what was typed", async () => {
    const user = userEvent.setup();
    const bad = [REPORT, { kind: 'media', title: 'Test second report', url: 'ftp://example.org/x' }];
    // The message the server sends for this list, from the shared schema it validates with.
    const refused = sourcesSchema.safeParse(JSON.stringify(bad));
    const message = refused.error!.issues[0]!.message;
    expect(placeSourceError(message, [toDraft(REPORT, 7), toDraft(bad[1] as Source, 8)])).toEqual({ key: 8, field: 'url', message: 'Link must start with http:// or https://' });
    renderVictimForm(testRecord({ category: 'victims', sources: bad as Source[] }), async () => {
      throw new ApiError(400, { sources: message });
    });
    await user.type(within(sourceGroup(1)).getByLabelText('Note'), ' typed');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const link = within(sourceGroup(2)).getByLabelText('Link');
    await waitFor(() => expect(link).toHaveFocus());
    expect(link).toHaveAttribute('aria-invalid', 'true');
    expect(link).toHaveAccessibleDescription('Link must start with http:// or https://');
    expect(within(sourceGroup(1)).getByLabelText('Link')).not.toHaveAttribute('aria-invalid');
    expect(within(sourceGroup(1)).getByLabelText('Note')).toHaveValue('Test note typed');
  });

  it('shows an error about the whole list at the list, which takes the focus', async () => {
    renderVictimForm(undefined, async () => {
      throw new ApiError(400, { sources: 'At most 50 sources' });
    });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Submit' }));
    const group = screen.getByRole('group', { name: 'Sources' });
    await waitFor(() => expect(group).toHaveFocus());
    expect(group).toHaveAccessibleDescription(expect.stringContaining('At most 50 sources'));
  });
});
