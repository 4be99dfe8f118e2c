import type { CatalogService } from '../../../catalog/service.js';
import type { App } from '../../types.js';
import { getStatsRoute } from './get-stats.js';

export function statsRoutes(app: App, catalog: CatalogService): void {
  getStatsRoute(app, catalog);
}
