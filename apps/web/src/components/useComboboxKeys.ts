import type { KeyboardEvent } from 'react';

/**
 * The keys of a WAI-ARIA combobox with a list popup (list autocomplete), for the text input that owns the list: the
 * arrows open the list and move the active option round it, Enter picks the active option (never sending the form
 * while the list shows), Escape closes the list. What differs between the comboboxes is said by the options below.
 */
export interface ComboboxKeysOptions {
  /** How many options the list holds. */
  count: number;
  /** Whether the list shows. */
  shown: boolean;
  /** The active option's index (-1: none). */
  active: number;
  setActive: (index: number) => void;
  setOpen: (open: boolean) => void;
  /** Enter on the active option while the list shows. */
  pick: (index: number) => void;
  /** The arrows open the list even with no options (it then says there is no match); otherwise they do nothing. */
  openWhenEmpty?: boolean;
  /** The arrows on a closed list start from the first option (down) or the last (up), not from the active one. */
  restartWhenClosed?: boolean;
  /** Enter is kept from sending the form even while the list is closed (a search is typed but nothing picked). */
  holdEnter?: boolean;
  /** Escape, after the list is closed or when it was: e.g. no option stays active. */
  onEscape?: () => void;
  /** Escape on a closed list: returns whether it did something (cleared the search), which then stops the key. */
  onEscapeClosed?: () => boolean;
}

/** The combobox input's onKeyDown. */
export function useComboboxKeys(options: ComboboxKeysOptions) {
  const { count, shown, active, setActive, setOpen, pick } = options;
  return (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!count && !options.openWhenEmpty) return;
      const down = event.key === 'ArrowDown';
      setOpen(true);
      if (!count) return;
      if (!shown && options.restartWhenClosed) setActive(down ? 0 : count - 1);
      else setActive((active + (down ? 1 : count - 1)) % count);
    } else if (event.key === 'Enter') {
      if (!shown && !options.holdEnter) return;
      event.preventDefault();
      if (shown && active >= 0) pick(active);
    } else if (event.key === 'Escape') {
      if (shown) {
        event.preventDefault();
        setOpen(false);
      } else if (options.onEscapeClosed?.()) {
        event.preventDefault();
      }
      options.onEscape?.();
    }
  };
}
