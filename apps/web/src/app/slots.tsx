import { lazy } from 'react';
import type { Slots } from '../components/Slots';

/**
 * Components one feature shows inside another's page, joined here so features never import each other.
 * The campaign engineer registers the home page's form, lazily so its code loads only with the home page's slot:
 *   campaignForm: lazy(() => import('../features/campaign/CampaignForm')),
 */
export const slots: Slots = {
  campaignForm: lazy(() => import('../features/campaign/CampaignForm')),
};
