import type { CatalogService } from '../../../catalog/service.js';
import type { App } from '../../types.js';
import { getJobRoute } from './get-job.js';
import { listJobsRoute } from './list-jobs.js';

export function jobRoutes(app: App, catalog: CatalogService): void {
  listJobsRoute(app, catalog);
  getJobRoute(app, catalog);
}
