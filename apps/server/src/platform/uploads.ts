import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from './errors.ts';

/** Reads the uploaded files of a multipart request, refusing any file over `maxBytes` with `tooLarge`. */
export async function readFiles(request: FastifyRequest, maxBytes: number, maxFiles: number, tooLarge: string) {
  if (!request.isMultipart()) throw badRequest('Send the files as multipart/form-data');
  const files: Array<{ name: string; data: Buffer }> = [];
  try {
    for await (const part of request.files({ limits: { fileSize: maxBytes, files: maxFiles } })) {
      files.push({ name: part.filename, data: await part.toBuffer() });
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, tooLarge, 'file_too_large');
    if (code === 'FST_FILES_LIMIT') throw badRequest(`Send at most ${maxFiles} files at once`);
    throw error;
  }
  return files;
}
