/**
 * What a camera's failure may tell a user: a category, never ffmpeg's text. Raw text carries the stream URL with
 * its credentials, and its wording (refused at once, timed out, unreachable) would let anyone who can set a camera
 * URL map the network through `lastError`.
 */
export const STREAM_FAILURES = {
  refused: 'Connection refused',
  timeout: 'Connection timed out',
  unreachable: 'Camera unreachable',
  auth: 'Authentication failed',
  notFound: 'Stream not found',
  format: 'Stream format not supported',
  ended: 'Stream ended',
} as const;
export type StreamFailure = (typeof STREAM_FAILURES)[keyof typeof STREAM_FAILURES];

const RULES: Array<[RegExp, StreamFailure]> = [
  [/\b401\b|unauthori[sz]ed|authentication|auth.*fail/i, STREAM_FAILURES.auth],
  [/\b40[34]\b|not found|no such stream/i, STREAM_FAILURES.notFound],
  [/connection refused|ECONNREFUSED|connection reset|ECONNRESET/i, STREAM_FAILURES.refused],
  [/timed out|timeout|ETIMEDOUT/i, STREAM_FAILURES.timeout],
  [
    /unreachable|no route to host|name or service not known|failed to resolve|temporary failure in name resolution|EHOSTUNREACH|ENETUNREACH/i,
    STREAM_FAILURES.unreachable,
  ],
  [/invalid data|could not find codec|unsupported|does not contain any stream|no video/i, STREAM_FAILURES.format],
];

/** The category of a stream failure from ffmpeg's error output. */
export function classifyStreamFailure(output: string): StreamFailure {
  for (const [pattern, failure] of RULES) if (pattern.test(output)) return failure;
  return STREAM_FAILURES.ended;
}

/**
 * Removes credentials from any text before it is logged or stored: `user:password@` of every URL (whatever the
 * scheme), and `password=`, `pass=`, `pwd=`, `token=` parameters. The one helper for every line that may hold a
 * stream URL.
 */
export function scrubCredentials(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@"'<>]*@/gi, '$1***@')
    .replace(/\b(password|passwd|pass|pwd|token|auth)=([^&\s"']*)/gi, '$1=***');
}
