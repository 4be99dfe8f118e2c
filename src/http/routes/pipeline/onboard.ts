import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { badRequest } from '../../../errors.js';
import { DomainError, normalizeDomain } from '../../../pipeline/domain.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { DomainField, Enqueued, WorkflowIdField } from './schemas.js';

const Body = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Company name', examples: ['Acme AI'] }),
    domain: DomainField,
    force: Type.Optional(
      Type.Boolean({ default: false, description: 'Re-run steps whose completion markers are set' }),
    ),
  },
  { additionalProperties: false },
);

const Accepted = dataOf(
  Type.Object({
    workflowId: WorkflowIdField,
    domain: Type.String({ description: 'The normalized domain', examples: ['acme.co.uk'] }),
    status: Enqueued,
  }),
);

/**
 * C0 and C1 controls (BEL, ESC of ANSI escapes, newlines), DEL, and the bidirectional embeddings, overrides and
 * isolates (U+202A-202E, U+2066-2069), which can make a name display as something it is not.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/** A company name as stored and shown: trimmed, not blank, no control or bidi-override characters. */
export function companyName(input: string): string {
  const name = input.trim();
  if (name.length === 0) throw badRequest("Invalid field 'name': must not be blank");
  if (CONTROL.test(name)) {
    throw badRequest(
      "Invalid field 'name': must not contain control characters (C0/C1 controls, ANSI escapes, bidirectional overrides)",
    );
  }
  return name;
}

/** Normalizes a domain or answers 400 naming the field. */
export function domainOrBadRequest(input: string): string {
  try {
    return normalizeDomain(input);
  } catch (err) {
    if (err instanceof DomainError) throw badRequest(`Invalid field 'domain': ${err.message}`);
    throw err;
  }
}

/**
 * POST /onboard: creates or updates the company and runs ingestion as a durable background workflow.
 * Answers 202 at once; concurrent calls for one domain get the same workflowId while that run is enqueued or
 * running, and a call after it ended starts a new run.
 */
export function onboardRoute(app: App, deps: Deps): void {
  app.post(
    '/onboard',
    {
      config: { access: 'token' },
      schema: {
        operationId: 'onboardCompany',
        tags: ['pipeline'],
        summary: 'Onboard a company: enrich, discover job boards, scrape (durable, 202)',
        description:
          'Steps: company -> enrich -> discover-boards -> load-boards -> scrape:<provider>/<token> (one per board) -> ' +
          'finalize. enrich, discover-boards and scrape are skipped when their completion markers are set, unless ' +
          'force is true. Unknown body fields are refused.',
        security: [{ bearer: [] }],
        body: Body,
        response: { 202: Accepted, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const name = companyName(request.body.name);
      const domain = domainOrBadRequest(request.body.domain);
      const { workflowId } = await deps.pipeline.engine.enqueue('onboard', {
        domain,
        name,
        force: request.body.force ?? false,
      });
      return reply.status(202).send({ data: { workflowId, domain, status: 'enqueued' as const } });
    },
  );
}
