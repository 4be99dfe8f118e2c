import type { Deps } from '../../deps.js';
import { rejectUndeclaredNulls } from '../limits/strict-null.js';
import { rejectUnknownQueryParameters } from '../limits/strict-query.js';
import type { App } from '../types.js';
import { catalogRoutes } from './catalog.js';
import { discoveryRoutes } from './discovery/index.js';
import { pipelineRoutes } from './pipeline/index.js';
import { researchRoutes } from './research/index.js';
import { siteRoutes } from './site/index.js';
import type { Site } from './site/page.js';
import { systemRoutes } from './system/index.js';
import { watchRoutes } from './watches/index.js';

/** Each resource's index registers its operations; this list is the whole HTTP surface. */
export async function registerRoutes(app: App, deps: Deps, prefix: string, site: Site): Promise<void> {
  rejectUnknownQueryParameters(app);
  rejectUndeclaredNulls(app);
  await app.register(async (scope) => siteRoutes(scope, deps.catalog, deps.signals, site));
  await app.register(async (scope) => systemRoutes(scope, deps, prefix));
  await app.register(async (scope) => catalogRoutes(scope, deps, prefix));
  await app.register(async (scope) => discoveryRoutes(scope, deps, prefix));
  await app.register(async (scope) => pipelineRoutes(scope, deps, prefix));
  await app.register(async (scope) => researchRoutes(scope, deps.research, prefix));
  await app.register(async (scope) => watchRoutes(scope, deps.watches, prefix));
}
