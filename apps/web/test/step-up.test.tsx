import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../src/lib/i18n';
import { StepUpPrompt } from '../src/components/StepUpPrompt';
import { request } from '../src/lib/api';
import { session } from '../src/lib/session';
import { callsTo, json, mockFetch, renderScreen, signIn } from './helpers';

afterEach(() => {
  cleanup();
  session.clear();
  vi.unstubAllGlobals();
});

/** Test accounts only. */
describe('step-up', () => {
  it('asks for a code when an action answers stepUpRequired, sends it, then sends the action again', async () => {
    signIn('super-1', 'super');
    let proved = false;
    const fetchMock = mockFetch((url, init) => {
      if (url.pathname === '/api/users/step-up') {
        const body = JSON.parse(String(init.body)) as { code?: string };
        if (body.code !== '123456') return json({ code: 'This code is not right (or was used already)' }, 400);
        proved = true;
        return json({ message: 'Confirmed for the next five minutes' });
      }
      if (!proved) return json({ message: 'Confirm it is you', code: 'stepUpRequired', stepUp: '/api/users/step-up' }, 403);
      return json({ id: 'user-2', role: 'admin' });
    });
    renderScreen(<StepUpPrompt />);
    const done = request<{ role: string }>('/api/users/user-2/role', { method: 'PUT', body: { role: 'admin' }, raw: true });
    const field = await screen.findByLabelText('Code or password');
    await userEvent.type(field, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This code is not right');
    await userEvent.clear(field);
    await userEvent.type(field, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await expect(done).resolves.toEqual({ id: 'user-2', role: 'admin' });
    expect(callsTo(fetchMock, 'PUT', '/api/users/user-2/role')).toHaveLength(2);
    await waitFor(() => expect(screen.queryByLabelText('Code or password')).toBeNull());
  });

  it('gives the refusal to the caller when the person cancels', async () => {
    signIn('super-1', 'super');
    mockFetch(() => json({ message: 'Confirm it is you', code: 'stepUpRequired', stepUp: '/api/users/step-up' }, 403));
    renderScreen(<StepUpPrompt />);
    // Settled into a value at once: the refusal comes while the test is still clicking.
    const done = request('/trash/x', { method: 'DELETE' }).then(() => null, (err: unknown) => err);
    await screen.findByLabelText('Code or password');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await done).toMatchObject({ status: 403 });
  });
});
