import { AppError } from '../../errors';

/**
 * A campaign message's life, after mySociety WriteToThem: nothing reaches a representative until the sender has
 * confirmed by the e-mailed link. Every change goes through `assertTransition`, so a letter can never be sent twice,
 * sent unconfirmed, or revived after it expired.
 */
export const CAMPAIGN_STATES = ['awaiting_confirmation', 'confirmed', 'sent', 'expired', 'failed'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

const ALLOWED: Record<CampaignState, readonly CampaignState[]> = {
  // failed here: the confirmation e-mail itself could not be sent.
  awaiting_confirmation: ['confirmed', 'expired', 'failed'],
  confirmed: ['sent', 'failed'],
  sent: [],
  expired: [],
  failed: [],
};

export function canTransition(from: string, to: CampaignState): boolean {
  return (ALLOWED[from as CampaignState] ?? []).includes(to);
}

export class IllegalTransitionError extends AppError {
  constructor(
    public readonly from: string,
    public readonly to: CampaignState,
  ) {
    super(409, { message: `A message that is ${from.replace('_', ' ')} cannot become ${to.replace('_', ' ')}` });
    this.name = 'IllegalTransitionError';
  }
}

/** Throws IllegalTransitionError (a 409 when it reaches a client) unless `from -> to` is allowed. */
export function assertTransition(from: string, to: CampaignState): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
}
