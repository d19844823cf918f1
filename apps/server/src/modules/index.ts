import type { FastifyPluginAsync } from 'fastify';
import campaignArea from './campaign/plugin';
import usersArea from './users/plugin';

/**
 * The areas' route plugins, in load order. Each area (records, users, campaign, audit...) adds its plugin here and
 * keeps everything else in its own folder.
 */
export const areaPlugins: FastifyPluginAsync[] = [usersArea, campaignArea];
