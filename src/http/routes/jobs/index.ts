import type { CatalogService } from '../../../catalog/service.js';
import type { App } from '../../types.js';
import { getJobRoute } from './get-job.js';
import { jobFeedRoute } from './job-feed.js';
import { listJobsRoute } from './list-jobs.js';

export function jobRoutes(app: App, catalog: CatalogService, now: () => number): void {
  listJobsRoute(app, catalog);
  jobFeedRoute(app, catalog, now);
  getJobRoute(app, catalog);
}
