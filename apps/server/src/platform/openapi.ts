import { errorSchema } from '@sitewatch/contracts';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteAccess } from './auth/context.ts';

/**
 * The OpenAPI document says what each operation really asks and answers, from the route's own options: an
 * operationId and a one-line summary on every operation, its security (public routes none; signed-in writes either a
 * bearer token alone or the session cookie with the CSRF header), and the 4xx answers it can give with the error shape.
 */

export const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', description: 'The access token from sign-in (`access`), or from /api/token/refresh/.' },
  session: { type: 'apiKey', in: 'cookie', name: 'sw_session', description: 'The browser session cookie set at sign-in.' },
  csrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRFToken',
    description:
      'Unsafe methods (POST, PUT, PATCH, DELETE) sent with the session cookie must repeat the csrftoken cookie (from GET ' +
      '/api/auth/csrf/) in this header. A request that carries only `Authorization: Bearer` and no session cookie needs ' +
      'no CSRF token: a browser cannot forge it (as Django REST framework exempts token authentication).',
  },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN; without one configured, loopback callers only.' },
} as const;

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const errorJson = z.toJSONSchema(errorSchema, { target: 'openapi-3.0' }) as Record<string, unknown>;
delete errorJson.$schema;
const answer = (description: string) => ({ description, ...errorJson });

const words = (segment: string) =>
  segment
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** `GET /iotapp/devices/:id/` → `getIotappDevicesById`: unique, because a method and a path are. */
export function operationIdOf(method: string, url: string): string {
  const parts = url.split('/').filter(Boolean);
  const tail = parts.map((p) => (p.startsWith(':') ? `By${pascal(p.slice(1))}` : pascal(p))).join('');
  return `${method.toLowerCase()}${tail || 'Root'}`;
}

/** A one-line summary from the method and the path, for routes that give none. */
export function summaryOf(method: string, url: string): string {
  const parts = url.split('/').filter(Boolean);
  const last = parts.at(-1) ?? '';
  const named = parts.filter((p) => !p.startsWith(':') && !p.startsWith('{'));
  const resource = words(named.at(-1) ?? 'root');
  const parent = named.length > 1 && parts.indexOf(named.at(-1) as string) > 0 ? words(named.at(-2) as string) : '';
  const one = last.startsWith(':');
  const of = parent && parts.some((p, i) => p.startsWith(':') && i < parts.length - 1) ? ` of one ${parent} item` : '';
  switch (method) {
    case 'GET':
      return one ? `Read one ${resource} item` : `List ${resource}${of}`;
    case 'POST':
      return one ? `Act on one ${resource} item` : `Create or run ${resource}${of}`;
    case 'PUT':
      return `Replace ${one ? `one ${resource} item` : `${resource}${of}`}`;
    case 'PATCH':
      return `Update ${one ? `one ${resource} item` : `${resource}${of}`}`;
    case 'DELETE':
      return `Delete ${one ? `one ${resource} item` : `${resource}${of}`}`;
    default:
      return `${method} ${url}`;
  }
}

/** What a device may POST to the HTTP device API (ThingsBoard's formats); the route reads the raw body itself. */
export const DEVICE_PAYLOAD_SCHEMA = {
  description:
    'Key-value pairs, or `{ "ts": <ms>, "values": { ... } }`, or an array of either (telemetry); attributes take key-value pairs.',
  oneOf: [
    { type: 'object', additionalProperties: { oneOf: [{ type: 'number' }, { type: 'string' }, { type: 'boolean' }, { type: 'object' }] } },
    {
      type: 'object',
      required: ['ts', 'values'],
      properties: { ts: { type: 'integer' }, values: { type: 'object', additionalProperties: true } },
    },
    { type: 'array', items: { type: 'object', additionalProperties: true } },
  ],
};

interface RouteLike {
  method: string | string[];
  config?: { access?: RouteAccess; rateLimit?: unknown; openapiBody?: Record<string, unknown> };
}

type Transformed = { schema: Record<string, unknown>; url: string };

export function openApiTransform(input: Parameters<typeof jsonSchemaTransform>[0]): Transformed {
  const { schema, url } = jsonSchemaTransform(input) as Transformed;
  const route = (input as unknown as { route: RouteLike }).route;
  const method = (Array.isArray(route.method) ? route.method[0] : route.method) ?? 'GET';
  const access = route.config?.access ?? {};
  const open = access.public === true || access.tenantless === true;
  const out: Record<string, unknown> = { ...schema };
  out.operationId ??= operationIdOf(method, url);
  out.summary ??= summaryOf(method, url);
  if (route.config?.openapiBody && !out.body) out.body = route.config.openapiBody;

  if (url === '/metrics') out.security = [{ metricsToken: [] }, {}];
  else if (open) out.security = [];
  else if (SAFE.has(method) || access.csrf === false) out.security = [{ bearer: [] }, { session: [] }];
  else out.security = [{ bearer: [] }, { session: [], csrf: [] }];

  const responses = { ...((out.response as Record<string, unknown> | undefined) ?? {}) };
  const add = (status: number, description: string) => {
    responses[status] ??= answer(description);
  };
  if (out.body || out.querystring || out.params || !SAFE.has(method)) add(400, 'Invalid input: `errors` lists each field and its message');
  if (!open) add(401, 'Not signed in, or the session or token expired');
  if (!open || (!SAFE.has(method) && access.csrf !== false)) add(403, 'Not allowed, or (cookie sessions) the CSRF token is missing');
  if (url.includes('/:') || url === '/metrics')
    add(
      url === '/metrics' ? 401 : 404,
      url === '/metrics' ? 'A valid metrics token is required' : 'No such object (or not visible to the caller)',
    );
  if (!SAFE.has(method)) add(409, 'Conflicts with the current state (a duplicate, or a change made meanwhile)');
  if (route.config?.rateLimit || open) add(429, 'Too many requests: retry after the Retry-After seconds');
  out.response = responses;
  return { schema: out, url };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A request body to document for a route that reads its body raw (the device API): JSON Schema. */
    openapiBody?: Record<string, unknown>;
  }
}
