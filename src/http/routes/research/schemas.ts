import { Type } from 'typebox';
import { badRequest } from '../../../errors.js';
import { DomainError, normalizeDomain } from '../../../pipeline/domain.js';
import { DossierSchema, PROCESSORS, RESEARCH_MODES, ResearchRunSchema } from '../../../research/dossier.js';

/** Shapes of the deep-research routes. */

export const CompanyRefSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String({ examples: ['Acme AI'] }),
    domain: Type.String({ examples: ['acme.com'] }),
    slug: Type.String({ examples: ['acme-ai'] }),
  },
  { description: 'The researched company' },
);

export const ModeSchema = Type.Enum(RESEARCH_MODES, {
  description: 'full (default) reads more; fast uses Parallel’s -fast processors or fewer pages',
});

export const ProcessorSchema = Type.Enum(PROCESSORS, {
  description:
    'Depth and cost: lite, base (default), core, core2x, pro, ultra. Beyond base needs the Parallel provider ' +
    '(PARALLEL_API_KEY); other providers answer 400 naming the configured provider.',
});

export { DossierSchema, ResearchRunSchema };

/** A domain from a body field or path parameter, normalized like /onboard; otherwise 400 naming it. */
export function researchDomain(input: string, field: string): string {
  try {
    return normalizeDomain(input);
  } catch (err) {
    if (err instanceof DomainError) throw badRequest(`Invalid ${field} 'domain': ${err.message}`);
    throw err;
  }
}
