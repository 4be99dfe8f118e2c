import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import {
  AppError,
  describeInvalid,
  type ErrorCode,
  ShedError,
  UnavailableError,
  UpstreamError,
  unavailable,
  type ValidationIssue,
} from '../errors.js';
import { isPage, prefersHtml } from './route-config.js';

export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'BAD_REQUEST':
    case 'RESULT_WINDOW_EXCEEDED':
      return 400;
    case 'UNAUTHORIZED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'METHOD_NOT_ALLOWED':
      return 405;
    case 'CONFLICT':
      return 409;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'RATE_LIMITED':
      return 429;
    case 'SERVER_ERROR':
      return 500;
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}

/** The status of an error: 503 while something stands in the way, 502 for an upstream failure, else its code's. */
export function statusOfError(err: AppError): number {
  if (err instanceof UnavailableError) return 503;
  return err instanceof UpstreamError ? 502 : statusOf(err.code);
}

/** Renders an error as a web page for a person (the site's error view). */
export type PageErrorRenderer = (request: FastifyRequest, status: number, message: string) => string;

declare module 'fastify' {
  interface FastifyInstance {
    renderPageError?: PageErrorRenderer;
  }
}

/** Errors of page routes (and unknown paths a browser asks for) answer as pages rendered by `render`. */
export function registerPageErrors(app: FastifyInstance, render: PageErrorRenderer): void {
  app.decorate('renderPageError', render);
}

/** The envelope for API clients; for a page (see isPage), the same status as a page saying what went wrong. */
export function sendError(reply: FastifyReply, err: AppError, asPage = isPage(reply.request)): FastifyReply {
  if (err.retryAfterS !== undefined)
    reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfterS))));
  // RFC 9110 section 11.6.1: a 401 names the scheme that would be accepted.
  if (err.code === 'UNAUTHORIZED') reply.header('www-authenticate', 'Bearer');
  const status = statusOfError(err);
  const render = reply.server.renderPageError;
  if (asPage && render) {
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(render(reply.request, status, err.message));
  }
  return reply.status(status).send({ error: { code: err.code, message: err.message } });
}

/** Turns an Ajv validation failure into a message that names the parameter, e.g. "limit must be an integer". */
export function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const where =
    context === 'querystring' ? 'query parameter' : context === 'params' ? 'path parameter' : 'field';
  return describeInvalid(where, issues, context === 'body' ? 'body' : '(root)');
}

function fromFastifyError(err: FastifyError): AppError | undefined {
  if (err.validation) {
    return new AppError('BAD_REQUEST', describeValidation(err.validationContext, err.validation));
  }
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('BAD_REQUEST', `Malformed JSON body: ${err.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type; send application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('BAD_REQUEST', 'Content-Length does not match the body');
    default:
      break;
  }
  // Other client errors raised by Fastify or its plugins (e.g. malformed URL encoding).
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    if (err.statusCode === 404) return new AppError('NOT_FOUND', 'Not found');
    if (err.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    if (err.statusCode === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', err.message);
    return new AppError('BAD_REQUEST', err.message);
  }
  return undefined;
}

/** One place renders every failure as the envelope; unknown errors become an opaque 500 with the stack logged. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = err instanceof AppError ? err : fromFastifyError(err);
    if (known) {
      if (known instanceof ShedError) request.log.debug({ code: known.code }, known.message);
      else if (known instanceof UnavailableError) request.log.warn({ err }, 'dependency unavailable');
      return sendError(reply, known);
    }
    if (isInputRejectedByDatabase(err)) {
      // A safety net: input validation should catch these first, but a value PostgreSQL cannot store or parse
      // (a NUL byte, an out-of-range number) is still the client's input, not a server fault.
      request.log.warn({ err }, 'input rejected by the database');
      return sendError(
        reply,
        new AppError('BAD_REQUEST', 'The request contains a value that cannot be processed'),
      );
    }
    if (isDatabaseUnavailable(err)) {
      request.log.error({ err }, 'database unavailable');
      return sendError(reply, unavailable('The database is unavailable; try again shortly'));
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, new AppError('SERVER_ERROR', 'Internal server error'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = app.allowedMethods(path);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendError(
        reply,
        new AppError(
          'METHOD_NOT_ALLOWED',
          `${request.method} is not supported on ${path}; use ${allowed.join(', ')}`,
        ),
      );
    }
    // A browser following a stale link gets a page; an API path always answers the envelope.
    const page = request.method === 'GET' && !path.startsWith('/api/') && prefersHtml(request.headers.accept);
    return sendError(reply, new AppError('NOT_FOUND', `No route for ${request.method} ${path}`), page);
  });
}

// SQLSTATE data exceptions that only input can cause: untranslatable/invalid characters, bad text
// representation, numeric out of range, invalid datetime, string too long.
const INPUT_CODES = new Set(['22021', '22P05', '22P02', '22003', '22007', '22008', '22001']);

function isInputRejectedByDatabase(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && INPUT_CODES.has(code);
}
