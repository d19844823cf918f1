/**
 * Step-up (decisions.md §4): an action that can hurt a witness answers 403 `stepUpRequired` unless the session proved
 * a factor in the last five minutes. The API client asks here (lib/api.ts); the prompt (components/StepUpPrompt.tsx)
 * shows while a question waits and answers it: true once the server accepted a code or password, false on cancel.
 */
type Listener = () => void;
let waiting: ((proved: boolean) => void) | null = null;
const listeners = new Set<Listener>();
const emit = () => listeners.forEach((listener) => listener());

export const stepUp = {
  /** Whether the prompt should show now. */
  asking: () => waiting !== null,
  ask(): Promise<boolean> {
    // With no prompt on the page (server rendering, tests without the layout) nobody can answer.
    if (listeners.size === 0) return Promise.resolve(false);
    waiting?.(false);
    return new Promise((resolve) => {
      waiting = resolve;
      emit();
    });
  },
  answer(proved: boolean) {
    const resolve = waiting;
    waiting = null;
    emit();
    resolve?.(proved);
  },
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
