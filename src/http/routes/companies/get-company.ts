import { Type } from 'typebox';
import type { CatalogService } from '../../../catalog/service.js';
import { notFound } from '../../../errors.js';
import { CompanyDetailSchema } from '../../schemas/catalog.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';

const Params = Type.Object({
  id: Type.String({
    description: 'Company id (UUID) or slug (case-insensitive)',
    examples: ['anthropic'],
  }),
});

/** GET /companies/:id: one company by UUID or slug, inactive ones included (active: false). */
export function getCompanyRoute(app: App, catalog: CatalogService): void {
  app.get(
    '/companies/:id',
    {
      config: { access: 'public', resource: 'companies', cache: true },
      schema: {
        operationId: 'getCompany',
        tags: ['catalog'],
        summary: 'One company with tags, active job count and full metadata',
        description:
          'Looked up by UUID or slug. Also answers for companies no longer listed (active: false).',
        params: Params,
        response: { 200: dataOf(CompanyDetailSchema), ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const company = await catalog.getCompany(request.params.id);
      if (!company) throw notFound(`No company with id or slug '${request.params.id}'`);
      return { data: company };
    },
  );
}
