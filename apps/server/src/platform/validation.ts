import { findUnsafeText, LONE_SURROGATE_MESSAGE, NUL_MESSAGE } from '@sitewatch/contracts';
import type { FastifyInstance, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { humaniseField } from './validation-messages.ts';

const fieldName = (path: string[]) => humaniseField(path.filter((s) => !/^\d+$/.test(s)).at(-1) ?? 'text');

/** The marker the error handler reads to answer a validation failure as a 400 with field paths. */
const ZOD_VALIDATION_ERROR = Symbol.for('ZodFastifySchemaValidationError');

/**
 * The zod validator of every route, plus the rule no schema can forget: no NUL and no unpaired UTF-16 surrogate
 * anywhere in params, query or body (PostgreSQL text cannot hold the one nor json the other: a `%00` in a query string
 * would otherwise become a 500, and a `\ud800` in a body a change whose activity entry cannot be written).
 */
export const safeValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return (data: unknown) => {
    const unsafe = findUnsafeText(data);
    if (unsafe) {
      const path = `/${unsafe.path.join('/')}`;
      return {
        error: [
          {
            [ZOD_VALIDATION_ERROR]: true,
            keyword: 'custom',
            instancePath: path,
            schemaPath: `#${path}/custom`,
            message: unsafe.kind === 'nul' ? NUL_MESSAGE : `${fieldName(unsafe.path)} ${LONE_SURROGATE_MESSAGE}`,
            params: {},
          },
        ] as never,
      };
    }
    return validate(data);
  };
};

const sharedResponses = new WeakSet<object>();
/** The encoded bytes of shared answers, which `shared-answer-compression.ts` compresses once. */
const sharedBodies = new WeakSet<Buffer>();
export const isSharedBody = (payload: unknown): payload is Buffer => Buffer.isBuffer(payload) && sharedBodies.has(payload);

/**
 * Marks an answer handed to many requests (a tenant's settings or a session's current login from a cache, a page of
 * tickets read once for the screens that asked together): it is frozen, and each route encodes and stringifies it
 * once (`memoizedSerializerCompiler`) instead of on every call.
 */
export function sharedResponse<T extends object>(value: T): T {
  sharedResponses.add(Object.freeze(value));
  return value;
}

/**
 * The zod serializer of every route: the response schema still shapes every answer, a shared one only once, kept as
 * its UTF-8 bytes (Fastify sends a Buffer as it is, where a string is measured and encoded again on every reply).
 */
export const memoizedSerializerCompiler: FastifySerializerCompiler<ZodType> = (route) => {
  const serialize = serializerCompiler(route);
  const encoded = new WeakMap<object, Buffer>();
  return (data: unknown) => {
    if (typeof data !== 'object' || data === null || !sharedResponses.has(data)) return serialize(data);
    let bytes = encoded.get(data);
    if (bytes === undefined) {
      bytes = Buffer.from(serialize(data));
      encoded.set(data, bytes);
      sharedBodies.add(bytes);
    }
    return bytes as unknown as string;
  };
};

const shapeKeys = (schema: unknown): string[] => {
  const shape = (schema as { shape?: unknown } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
};

/**
 * A PUT of exactly what a GET of the same path returned is accepted: the fields the answer has and the body schema
 * does not (ids, counts, timestamps: read-only) are dropped before validation. Any other unknown field is still
 * refused by the strict body schemas, so a misspelt field never passes silently.
 */
export function ignoreReadOnlyFields(app: FastifyInstance) {
  const answers = new Map<string, string[]>();
  const readOnlyOf = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const response = (route.schema?.response ?? {}) as Record<string, unknown>;
    const keys = [...shapeKeys(response[200]), ...shapeKeys(response[201])];
    if (keys.length === 0) return;
    for (const method of methods) if (method === 'GET' || method === 'PUT') answers.set(`${method} ${route.url}`, keys);
  });
  app.addHook('preValidation', async (request) => {
    if (request.method !== 'PUT') return;
    const body = request.body;
    const schema = request.routeOptions.schema?.body;
    const url = request.routeOptions.url;
    if (!schema || !url || body === null || typeof body !== 'object' || Array.isArray(body)) return;
    let readOnly = readOnlyOf.get(url);
    if (!readOnly) {
      const accepted = new Set(shapeKeys(schema));
      const answered = [...(answers.get(`GET ${url}`) ?? []), ...(answers.get(`PUT ${url}`) ?? [])];
      readOnly = new Set(accepted.size === 0 ? [] : answered.filter((key) => !accepted.has(key)));
      readOnlyOf.set(url, readOnly);
    }
    for (const key of readOnly) delete (body as Record<string, unknown>)[key];
  });
}
