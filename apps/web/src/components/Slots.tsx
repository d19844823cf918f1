import { createContext, useContext, type ComponentType } from 'react';

/**
 * Places where one feature shows another's component without importing it (features never import each other):
 * the app fills the slots (app/slots.tsx) and a feature renders a slot by name.
 */
export interface Slots {
  /** The campaign form shown on the home page (features/campaign). */
  campaignForm?: ComponentType;
}

const SlotsContext = createContext<Slots>({});

export const SlotsProvider = SlotsContext.Provider;

export function useSlot<K extends keyof Slots>(name: K): Slots[K] {
  return useContext(SlotsContext)[name];
}
