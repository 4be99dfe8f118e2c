import type { CatalogService } from '../../../catalog/service.js';
import type { SignalsService } from '../../../signals/service.js';
import type { App } from '../../types.js';
import { assetRoutes } from './assets.js';
import { companiesPage } from './companies.js';
import { companyPage } from './company.js';
import { crawlerRoutes } from './crawlers.js';
import { homeRoute } from './home.js';
import { jobPage } from './job.js';
import { jobsPage } from './jobs.js';
import type { Site } from './page.js';
import { trendsPage } from './trends.js';

/**
 * The web site for people: server-rendered pages over the same catalog and signals services as the API. A new page is a route
 * file here (its query, its data, a view from src/web/views/) and one line below.
 */
export function siteRoutes(app: App, catalog: CatalogService, signals: SignalsService, site: Site): void {
  homeRoute(app, catalog, site);
  jobsPage(app, catalog, site);
  jobPage(app, catalog, site);
  companiesPage(app, catalog, site);
  companyPage(app, catalog, signals, site);
  trendsPage(app, signals, site);
  crawlerRoutes(app, catalog, site);
  assetRoutes(app);
}
