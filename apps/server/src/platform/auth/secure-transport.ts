import type { FastifyRequest } from 'fastify';

/**
 * Whether cookies set on this answer carry the Secure flag: always in production, and otherwise when the request came
 * over HTTPS, directly or through a proxy listed in TRUST_PROXY (its X-Forwarded-Proto; nobody else's is read).
 */
export const secureTransport = (request: FastifyRequest, always: boolean): boolean => always || request.protocol === 'https';
