import { type TSchema, Type } from 'typebox';

/** Shared schema pieces: every route spreads these so the envelope and errors are declared once. */

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable machine-readable code', examples: ['BAD_REQUEST'] }),
      message: Type.String({
        description: 'Human-readable explanation',
        examples: ["Invalid query parameter 'limit': must be an integer"],
      }),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every failure has this shape' },
);

export const PaginationMeta = Type.Object(
  {
    page: Type.Integer({ minimum: 1, description: 'The page returned' }),
    limit: Type.Integer({ minimum: 1, description: 'Page size after clamping to the tier maximum' }),
    total: Type.Integer({
      minimum: 0,
      description: 'Matching rows; for search, the shortlist size (at most 100)',
    }),
    totalPages: Type.Integer({ minimum: 0 }),
    facets: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Array(
          Type.Object({
            value: Type.String({ description: 'A value of the field, as its filter takes it' }),
            count: Type.Integer({ minimum: 1, description: 'Rows with this value' }),
          }),
        ),
        {
          description:
            'Only when `facets` is asked: per facet, its 20 most frequent values (ties by value), each counted ' +
            'over the rows every other filter selects (the facet’s own filter left out); with search, over the ' +
            'shortlist',
          examples: [
            {
              remote: [
                { value: 'false', count: 30 },
                { value: 'true', count: 12 },
              ],
            },
          ],
        },
      ),
    ),
  },
  { $id: 'PaginationMeta' },
);

const errorDescriptions: Record<number, string> = {
  400: 'BAD_REQUEST (malformed input or an unknown query parameter, naming it) or RESULT_WINDOW_EXCEEDED',
  401: 'UNAUTHORIZED: this endpoint needs a bearer token',
  403: 'FORBIDDEN: a token was presented but is not valid (never downgraded to anonymous)',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED: the path is served, but not with this method (the Allow header lists the methods)',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE: the body is over the limit (1 MB unless the operation says otherwise)',
  415: 'UNSUPPORTED_MEDIA_TYPE: send the body as application/json',
  429: 'RATE_LIMITED: Retry-After says how many seconds to wait',
  500: 'SERVER_ERROR (503 with the same code while a dependency such as the database is down)',
  502: 'SERVER_ERROR: an upstream provider failed',
  503: 'SERVER_ERROR: a dependency is unavailable, or search is at capacity; retry after Retry-After seconds',
};

/** The declaration of one error status: the envelope, with what that status means (and `detail` on this route). */
export const errorResponse = (status: number, detail?: string): TSchema =>
  Type.Ref('ErrorEnvelope', {
    description: `${errorDescriptions[status] ?? 'Error'}${detail ? `; ${detail}` : ''}`,
  });

/**
 * Error responses for the statuses a route can produce; 429, 500 and 503 apply to every route. The OpenAPI
 * document adds the statuses every route of a kind shares (see documents/openapi.ts), so a route lists its own.
 */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const s of [...new Set([...statuses, 429, 500, 503])]) out[s] = errorResponse(s);
  return out;
}

export const dataOf = <T extends TSchema>(item: T, description?: string) =>
  Type.Object({ data: item }, description ? { description } : {});

export const listOf = <T extends TSchema>(item: T, description?: string) =>
  Type.Object(
    { data: Type.Array(item), meta: Type.Ref('PaginationMeta') },
    description ? { description } : {},
  );

export const PageQuery = (defaultLimit: number, maxWithToken: number) => ({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1' })),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      default: defaultLimit,
      description: `Page size; default ${defaultLimit}, clamped to ${maxWithToken} with a token and 20 anonymous`,
    }),
  ),
});

/** Query booleans are the literal strings true/false; anything else is a 400 naming the parameter. */
export const QueryBoolean = (description: string) =>
  Type.Optional(Type.Boolean({ description: `${description} (true or false)` }));

export const Uuid = Type.String({ format: 'uuid' });
