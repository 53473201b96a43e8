import { detailOf, isHttpError } from '../../../lib/http.ts';

/** The server's message of a failed call (its SPEC wording), or a generic one. */
export const messageOf = (error: unknown, fallback = 'Something went wrong') =>
  (isHttpError(error) ? detailOf(error.data) : undefined) ?? fallback;
