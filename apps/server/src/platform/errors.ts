import { SERVER_MESSAGES } from '@sitewatch/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from './db.ts';
import { validationBody } from './validation-messages.ts';

/** An error whose message is safe to show to the caller. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly code?: string;
  /** Per-field problems (a form response or template that breaks its rules). */
  readonly errors?: Array<{ path: string; message: string }>;

  constructor(statusCode: number, message: string, code?: string, errors?: Array<{ path: string; message: string }>) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.errors = errors;
  }
}

export const badRequest = (message: string, code?: string) => new HttpError(400, message, code);
export const unauthorized = (message = 'Authentication credentials were not provided.', code?: string) => new HttpError(401, message, code);
export const forbidden = (message: string = SERVER_MESSAGES.forbidden) => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (message: string, code?: string) => new HttpError(409, message, code);

/** How long a client should wait before retrying while the database is unreachable. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
        .status(400)
        .send(validationBody(String(error.validationContext ?? 'body'), error.validation, SERVER_MESSAGES.validationFailed));
    }
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .send({ detail: error.message, code: error.code, ...(error.errors ? { errors: error.errors } : {}) });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ detail: SERVER_MESSAGES.serviceUnavailable, code: 'service_unavailable' });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response does not match its schema');
      return reply.status(500).send({ detail: 'Internal Server Error' });
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send({ detail: 'Internal Server Error' });
    }
    if (status === 429) return reply.status(429).send({ detail: SERVER_MESSAGES.tooManyRequests, code: 'rate_limited' });
    return reply.status(status).send({ detail: error.message, code: error.code });
  });
}
