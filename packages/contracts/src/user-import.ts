import { z } from 'zod';
import { csvLine } from './csv.ts';

/**
 * Bulk import of users from a CSV file (/users "Import"): a preview of every row, then the valid rows created a
 * chunk at a time (the client shows the progress), each as one user creation with its set-password e-mail.
 */

/** The columns of the template, in its order. `role` and `sites` take several values separated by `;`. */
export const USER_IMPORT_COLUMNS = ['username', 'email', 'firstname', 'lastname', 'mobile', 'role', 'group', 'sites'] as const;
export type UserImportColumn = (typeof USER_IMPORT_COLUMNS)[number];

/** Row and size limits of one file, checked on its content (bytes and parsed rows, never the name or headers). */
export const USER_IMPORT_LIMITS = { rows: 5000, fileBytes: 1024 * 1024, chunkRows: 500 } as const;

export const USER_IMPORT_MESSAGES = {
  noData: 'File contains no valid data for importing',
  tooLarge: 'The file is larger than 1 MB',
  tooManyRows: `A file may hold at most ${USER_IMPORT_LIMITS.rows} users`,
  notText: 'The file is not a CSV text file (UTF-8)',
  missingColumns: 'The columns username, email, firstname, lastname and role are required',
} as const;

/** The template to download: the header and one example row. */
export const USER_IMPORT_TEMPLATE =
  csvLine(USER_IMPORT_COLUMNS) +
  csvLine(['jdoe', 'jane.doe@example.com', 'Jane', 'Doe', '9876543210', 'fieldexecutive', '', 'Site A;SITE-B']);

/** The CSV text of the file (the web reads the file and sends its text). */
export const userImportBodySchema = z.strictObject({
  fileName: z.string().trim().max(200).default('users.csv'),
  /** Characters; the server also checks the UTF-8 size. */
  content: z.string().min(1, USER_IMPORT_MESSAGES.noData).max(USER_IMPORT_LIMITS.fileBytes, USER_IMPORT_MESSAGES.tooLarge),
});
export type UserImportBody = z.input<typeof userImportBodySchema>;

/** Which rows of the file to create: `count` data rows from the `from`-th (0-based); the whole file by default. */
export const userImportQuerySchema = z.strictObject({
  from: z.coerce.number().int().min(0).max(USER_IMPORT_LIMITS.rows).default(0),
  count: z.coerce.number().int().min(1).max(USER_IMPORT_LIMITS.rows).default(USER_IMPORT_LIMITS.rows),
});

export const userImportErrorSchema = z.object({ field: z.string().nullable(), message: z.string() });

/** One data row as read (row numbers count the header as row 1, as a spreadsheet shows them). */
export const userImportRowSchema = z.object({
  row: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  mobile: z.string(),
  roles: z.array(z.string()),
  group: z.string(),
  sites: z.array(z.string()),
  valid: z.boolean(),
  errors: z.array(userImportErrorSchema),
});
export type UserImportRow = z.infer<typeof userImportRowSchema>;

export const userImportPreviewSchema = z.object({
  totalRows: z.number().int(),
  validRows: z.number().int(),
  rows: z.array(userImportRowSchema),
  ignoredColumns: z.array(z.string()),
});
export type UserImportPreview = z.infer<typeof userImportPreviewSchema>;

export const userImportResultSchema = z.object({
  totalRows: z.number().int(),
  /** The rows this call looked at (its chunk). */
  from: z.number().int(),
  processedRows: z.number().int(),
  created: z.array(z.object({ row: z.number().int(), id: z.number().int(), username: z.string() })),
  failed: z.array(z.object({ row: z.number().int(), username: z.string(), email: z.string(), errors: z.array(userImportErrorSchema) })),
});
export type UserImportResult = z.infer<typeof userImportResultSchema>;

/** The failed rows as a CSV file to fix and import again (the template's columns plus the reasons). */
export function failedRowsCsv(rows: readonly (Pick<UserImportRow, 'row' | 'errors'> & Partial<UserImportRow>)[]) {
  const head = csvLine(['row', ...USER_IMPORT_COLUMNS, 'errors']);
  return (
    head +
    rows
      .map((r) =>
        csvLine([
          r.row,
          r.username ?? '',
          r.email ?? '',
          r.firstname ?? '',
          r.lastname ?? '',
          r.mobile ?? '',
          (r.roles ?? []).join(';'),
          r.group ?? '',
          (r.sites ?? []).join(';'),
          r.errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join(' | '),
        ]),
      )
      .join('')
  );
}
