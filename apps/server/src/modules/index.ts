import type { FastifyPluginAsync } from 'fastify';
import docsPlugin from './docs/plugin';
import capturesPlugin from './captures/plugin';
import recordsPlugin from './records/plugin';
import searchArea from './search/plugin';
import incidentSuggestArea from './incident-suggest/plugin';
import auditRoutes from './audit/plugin';
import campaignArea from './campaign/plugin';
import usersArea from './users/plugin';
import seoArea from './seo/plugin';
import exportArea from './export/plugin';
import duplicatesArea from './duplicates/plugin';
import statisticsArea from './statistics/plugin';
import evidencePackageArea from './evidence-package/plugin';
import mirrorArea from './mirror/plugin';
import testimonyArea from './testimony/plugin';
import importsArea from './imports/plugin';
import accessLogArea from './access-log/plugin';

/**
 * The areas' route plugins, in load order. Each area (records, users, campaign, audit...) adds its plugin here and
 * keeps everything else in its own folder.
 */
export const areaPlugins: FastifyPluginAsync[] = [
  // First: the OpenAPI document collects the routes registered after it.
  docsPlugin,
  // Before records: record writes queue captures of the links they cite.
  capturesPlugin,
  recordsPlugin,
  // After records: a search's hits are records, read as the records area serialises them.
  searchArea,
  incidentSuggestArea,
  auditRoutes,
  usersArea,
  campaignArea,
  seoArea,
  exportArea,
  duplicatesArea,
  statisticsArea,
  evidencePackageArea,
  mirrorArea,
  testimonyArea,
  // After records: imports create records through the records' write service.
  importsArea,
  accessLogArea,
];
