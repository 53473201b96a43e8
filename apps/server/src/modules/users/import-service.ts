import {
  ROLE_LABELS,
  ROLES,
  type Role,
  USER_ADMIN_MESSAGES,
  USER_IMPORT_LIMITS,
  USER_IMPORT_MESSAGES,
  USER_PERMISSIONS,
  type UserImportColumn,
  type UserImportPreview,
  type UserImportResult,
  type UserImportRow,
  type UserInput,
  userInputSchema,
} from '@sitewatch/contracts';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../platform/auth/context.ts';
import { csvText, parseCsv } from '../../platform/csv.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, forbidden, HttpError } from '../../platform/errors.ts';
import { issueMessage } from '../../platform/validation-messages.ts';
import type { SiteAssignments } from '../sites/index.ts';
import * as repo from './admin-repository.ts';
import type { UserAdminService } from './admin-service.ts';
import { grantableRoles, holdsAll } from './privileges.ts';

type RowError = UserImportRow['errors'][number];
type CheckedRow = UserImportRow & { input: UserInput | null };

const normalise = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');
const HEADER_ALIASES: Record<string, UserImportColumn> = {
  username: 'username',
  login: 'username',
  email: 'email',
  emailaddress: 'email',
  firstname: 'firstname',
  lastname: 'lastname',
  surname: 'lastname',
  mobile: 'mobile',
  mobilenumber: 'mobile',
  phone: 'mobile',
  role: 'role',
  roles: 'role',
  userrole: 'role',
  group: 'group',
  groups: 'group',
  permissiongroup: 'group',
  site: 'sites',
  sites: 'sites',
  assets: 'sites',
};
const REQUIRED: UserImportColumn[] = ['username', 'email', 'firstname', 'lastname', 'role'];

/** The CSV column a schema field is read from (so an error names the column the importer sees). */
const COLUMN_OF_FIELD: Record<string, UserImportColumn> = { userRole: 'role', groupId: 'group', assetIds: 'sites' };

const ROLE_BY_NAME = new Map<string, Role>(ROLES.flatMap((r) => [[normalise(r), r] as const, [normalise(ROLE_LABELS[r]), r] as const]));
const list = (cell: string) =>
  cell
    .split(';')
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * Bulk import of users from a CSV file. Every row goes through the rules of creating one user (the same schema,
 * privilege and duplicate checks, then `createWithHash` with its activity entry and the set-password e-mail), and
 * also against the other rows of the file. A row that fails never stops the others.
 */
export function createUserImportService(deps: { db: Db; admin: UserAdminService; siteAssignments: SiteAssignments }) {
  const { db, admin, siteAssignments } = deps;

  const need = (auth: AuthContext) => {
    if (!auth.permissions.has(USER_PERMISSIONS.add)) throw forbidden();
  };

  function read(content: string) {
    const checked = csvText(content, USER_IMPORT_LIMITS.fileBytes);
    if ('error' in checked) {
      throw checked.error === 'too_large'
        ? new HttpError(413, USER_IMPORT_MESSAGES.tooLarge, 'file_too_large')
        : badRequest(USER_IMPORT_MESSAGES.notText, 'not_csv');
    }
    const { rows, truncated } = parseCsv(checked.text, USER_IMPORT_LIMITS.rows);
    if (truncated) throw badRequest(USER_IMPORT_MESSAGES.tooManyRows, 'too_many_rows');
    const [header, ...records] = rows;
    if (!header || records.length === 0) throw badRequest(USER_IMPORT_MESSAGES.noData, 'no_data');
    const mapping = header.map((h) => HEADER_ALIASES[normalise(h)] ?? null);
    if (REQUIRED.some((c) => !mapping.includes(c))) {
      throw badRequest(`${USER_IMPORT_MESSAGES.noData}: ${USER_IMPORT_MESSAGES.missingColumns}`, 'missing_columns');
    }
    const ignoredColumns = header.filter((_h, i) => mapping[i] === null || mapping.indexOf(mapping[i] ?? null) !== i);
    return { mapping, records, ignoredColumns };
  }

  /** Every row of the file checked, with the input to create for the valid ones. */
  async function check(auth: AuthContext, content: string) {
    const { mapping, records, ignoredColumns } = read(content);
    const raw = records.map((cells, i) => {
      const cell = (c: UserImportColumn) => (cells[mapping.indexOf(c)] ?? '').trim();
      return {
        row: i + 2,
        username: cell('username'),
        email: cell('email'),
        firstname: cell('firstname'),
        lastname: cell('lastname'),
        mobile: cell('mobile'),
        roles: list(cell('role')),
        group: cell('group'),
        sites: list(cell('sites')),
      };
    });
    const [groups, sites, taken] = await Promise.all([
      repo.allGroups(db, auth.tenantId),
      siteAssignments.idsByNameOrCode(
        auth.tenantId,
        raw.flatMap((r) => r.sites),
      ),
      repo.takenIdentities(db, auth.tenantId, {
        usernames: raw.map((r) => r.username).filter(Boolean),
        emails: raw.map((r) => r.email).filter(Boolean),
        mobiles: raw.map((r) => r.mobile).filter(Boolean),
      }),
    ]);
    const grantable = grantableRoles(auth.roles);
    const seen = { username: new Map<string, number>(), email: new Map<string, number>(), mobile: new Map<string, number>() };

    const rows: CheckedRow[] = raw.map((r) => {
      const errors: RowError[] = [];
      const roles: Role[] = [];
      for (const name of r.roles) {
        const role = ROLE_BY_NAME.get(normalise(name));
        if (role) roles.push(role);
        else errors.push({ field: 'role', message: `Unknown role "${name}"` });
      }
      let groupId: number | null = null;
      if (r.group) {
        const group = groups.find((g) => g.name.trim().toLowerCase() === r.group.toLowerCase());
        if (!group) errors.push({ field: 'group', message: `Unknown group "${r.group}"` });
        else if (!holdsAll(auth.permissions, group.permissions))
          errors.push({ field: 'group', message: USER_ADMIN_MESSAGES.aboveOwnRights });
        else groupId = group.id;
      }
      const assetIds: number[] = [];
      for (const key of r.sites) {
        const ids = sites.get(key.toLowerCase()) ?? [];
        if (ids.length === 0) errors.push({ field: 'sites', message: `Unknown site "${key}"` });
        else if (ids.length > 1) errors.push({ field: 'sites', message: `Several sites are named "${key}": use the site code` });
        else if (!assetIds.includes(ids[0] as number)) assetIds.push(ids[0] as number);
      }
      if (roles.some((role) => !grantable.includes(role))) errors.push({ field: 'role', message: USER_ADMIN_MESSAGES.aboveOwnRights });

      const parsed = userInputSchema.safeParse({
        username: r.username,
        email: r.email,
        firstname: r.firstname,
        lastname: r.lastname,
        mobile: r.mobile || null,
        // Unknown roles are reported above; "Choose at least one role" only when the cell is empty.
        userRole: r.roles.length > 0 && roles.length === 0 ? ['customer'] : roles,
        groupId,
        assetIds,
      });
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const field = String(issue.path[0] ?? '');
          errors.push({ field: COLUMN_OF_FIELD[field] ?? (field || null), message: issueMessage(issue) });
        }
      }

      // Against the users of the customer, then against the rows above in the file.
      const identities = [
        ['username', r.username.toLowerCase(), taken.usernames],
        ['email', r.email.toLowerCase(), taken.emails],
        ['mobile', r.mobile, taken.mobiles],
      ] as const;
      for (const [field, value, existing] of identities) {
        if (!value) continue;
        const first = seen[field].get(value);
        if (existing.has(value)) errors.push({ field, message: USER_ADMIN_MESSAGES.exists });
        else if (first !== undefined) errors.push({ field, message: `${USER_ADMIN_MESSAGES.exists}: the same ${field} as row ${first}` });
        else seen[field].set(value, r.row);
      }
      const input = errors.length === 0 && parsed.success ? parsed.data : null;
      return { ...r, valid: input !== null, errors, input };
    });
    return { rows, ignoredColumns };
  }

  const publicRow = ({ input: _input, ...row }: CheckedRow): UserImportRow => row;

  return {
    async preview(auth: AuthContext, content: string): Promise<UserImportPreview> {
      need(auth);
      const { rows, ignoredColumns } = await check(auth, content);
      return { totalRows: rows.length, validRows: rows.filter((r) => r.valid).length, rows: rows.map(publicRow), ignoredColumns };
    },

    /**
     * Creates the valid rows among `count` rows from the `from`-th: each in its own transaction (with its activity
     * entry), then its set-password e-mail. The file is checked whole each time, so duplicates across chunks are found.
     */
    async run(
      request: FastifyRequest,
      auth: AuthContext,
      content: string,
      range: { from: number; count: number },
      origin: string,
    ): Promise<UserImportResult> {
      need(auth);
      const { rows } = await check(auth, content);
      const chunk = rows.slice(range.from, range.from + range.count);
      const result: UserImportResult = { totalRows: rows.length, from: range.from, processedRows: chunk.length, created: [], failed: [] };
      const fail = (row: CheckedRow, errors: RowError[]) =>
        result.failed.push({ row: row.row, username: row.username, email: row.email, errors });
      for (const row of chunk) {
        if (!row.input) {
          fail(row, row.errors);
          continue;
        }
        let id: number;
        try {
          id = await admin.createWithHash(request, auth, row.input, admin.unsetPasswordHash());
        } catch (error) {
          if (!(error instanceof HttpError)) request.log.error({ err: error, row: row.row }, 'user import: row failed');
          fail(row, [{ field: null, message: error instanceof HttpError ? error.message : USER_ADMIN_MESSAGES.createFailed }]);
          continue;
        }
        result.created.push({ row: row.row, id, username: row.input.username });
        try {
          await admin.invite(auth.tenantId, { id, email: row.input.email, firstname: row.input.firstname }, origin);
        } catch (error) {
          // The user exists; an administrator can send the e-mail again from the user's page.
          request.log.error({ err: error, userId: id }, 'user import: set-password e-mail failed');
        }
      }
      return result;
    },
  };
}
export type UserImportService = ReturnType<typeof createUserImportService>;
