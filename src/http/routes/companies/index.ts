import type { CatalogService } from '../../../catalog/service.js';
import type { App } from '../../types.js';
import { getCompanyRoute } from './get-company.js';
import { listCompaniesRoute } from './list-companies.js';

export function companyRoutes(app: App, catalog: CatalogService): void {
  listCompaniesRoute(app, catalog);
  getCompanyRoute(app, catalog);
}
