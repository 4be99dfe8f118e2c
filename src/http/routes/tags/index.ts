import type { CatalogService } from '../../../catalog/service.js';
import type { App } from '../../types.js';
import { listTagsRoute } from './list-tags.js';

export function tagRoutes(app: App, catalog: CatalogService): void {
  listTagsRoute(app, catalog);
}
