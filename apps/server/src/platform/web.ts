import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Paths that belong to the API: an unknown one is a JSON 404, never the web app. */
const API_PREFIXES = [
  '/api/',
  '/iotapp/',
  '/helpdesk/',
  '/notification/',
  '/ifmapp/',
  '/ws',
  '/health',
  '/ready',
  '/current-login',
  '/logout',
  '/app-version',
];

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app: hashed assets for a year, index.html for every other page route. The build writes
 * brotli and gzip siblings of every text file, which are sent as they are when the browser accepts them.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string) {
  // The build may appear or be replaced while the server runs (npm run build beside npm start).
  const hasBuild = () => existsSync(join(webDist, 'index.html'));
  const servable = existsSync(webDist);
  if (servable) await app.register(fastifyStatic, { root: webDist, serve: false, preCompressed: true, cacheControl: false });
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !API_PREFIXES.some((p) => path.startsWith(p));
    if (!isPage || !servable || !hasBuild()) {
      return reply.status(404).send({ detail: `Route ${request.method} ${path} not found` });
    }
    if (path.startsWith('/assets/') && existsSync(join(webDist, path))) {
      return reply.header('cache-control', IMMUTABLE).sendFile(path.slice(1), { etag: false, lastModified: false });
    }
    const file = path.slice(1);
    // no dot-folder of the build (its manifest) and nothing outside it
    if (file && !file.includes('..') && !/(^|\/)\./.test(file) && /^[\w./-]+\.\w+$/.test(file) && existsSync(join(webDist, file))) {
      return reply.header('cache-control', 'no-cache').sendFile(file);
    }
    return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
  });
}
