/**
 * Typed errors thrown by domain code. The HTTP layer maps each code to a status (http/error-handler.ts);
 * domain modules never import the HTTP framework.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'RESULT_WINDOW_EXCEEDED'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'SERVER_ERROR';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Seconds after which a retry may succeed (a rate limit, a dependency coming back), when known. */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** A dependency (database, Redis) or a capacity limit stands in the way for now; retry after `retryAfterS`. */
export class UnavailableError extends AppError {
  constructor(message: string, retryAfterS: number) {
    super('SERVER_ERROR', message, retryAfterS);
    this.name = 'UnavailableError';
  }
}

/**
 * Load shed on purpose (a capacity limit answered 503 with Retry-After): an expected answer under overload,
 * counted by its own metric. Not logged per request: a flood of them is what overload looks like, and one warning
 * with a stack each made the bench's overloaded search row write megabytes of log a second.
 */
export class ShedError extends UnavailableError {
  constructor(message: string, retryAfterS: number) {
    // No stack: nothing reads it, and capturing one took a visible share of the event loop while the bench's
    // search row shed its overload (docs/performance.md).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message, retryAfterS);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.name = 'ShedError';
  }
}

/**
 * A service we depend on for the answer (a research provider, the model, the company's site) failed it. The
 * HTTP layer answers 502 with the SERVER_ERROR code: the fault is upstream, not in the request or in this service.
 */
export class UpstreamError extends AppError {
  constructor(message: string) {
    super('SERVER_ERROR', message);
    this.name = 'UpstreamError';
  }
}

export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);

/** A dependency (database, Redis) is down: clients retry later (the HTTP layer answers 503). */
export const unavailable = (message: string) => new UnavailableError(message, 5);

/** One failure of a JSON Schema validator (Ajv's shape), as the API and the MCP tools report it. */
export interface ValidationIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * The sentence for a validation failure, naming what failed as `where` calls it ("query parameter", "field",
 * "argument"): "Invalid query parameter 'role_category': must be one of: fde, csm, ...". `whole` names the value
 * itself when the failure is not in one of its members.
 */
export function describeInvalid(where: string, issues: readonly ValidationIssue[], whole: string): string {
  const issue = issues[0];
  if (!issue) return 'Malformed request';
  const name = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const member = (child: string) => `'${name ? `${name}.` : ''}${child}'`;
  if (issue.keyword === 'required' && typeof issue.params?.missingProperty === 'string') {
    return `Missing required ${where} ${member(issue.params.missingProperty)}`;
  }
  if (issue.keyword === 'additionalProperties' && typeof issue.params?.additionalProperty === 'string') {
    return `Unknown ${where} ${member(issue.params.additionalProperty)}`;
  }
  let detail = issue.message ?? 'is invalid';
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)) {
    detail = `must be one of: ${issue.params.allowedValues.join(', ')}`;
  } else if (issue.keyword === 'type' && issue.params?.type === 'boolean') {
    detail = 'must be true or false';
  } else if (issue.keyword === 'type' && issue.params?.type === 'integer') {
    detail = 'must be an integer';
  } else if (issue.keyword === 'pattern' || issue.keyword === 'format') {
    detail =
      issue.keyword === 'format'
        ? `must be a valid ${String(issue.params?.format)}`
        : 'has an invalid format';
  }
  return `Invalid ${where} '${name || whole}': ${detail}`;
}
