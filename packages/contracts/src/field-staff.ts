import { z } from 'zod';
import { idCoerced } from './common.ts';
import { limitParam, orderBy, pageParam, searchText } from './query.ts';
import { adminUserSchema, newPasswordSchema, userInputSchema } from './user-admin.ts';

/**
 * Directories of the field roles (SPEC 2.2 /field-executives, /store-manager, /infra-admin): a person of a directory
 * is a user of that role with a field profile (employee code, designation, area, territory, joining date, notes).
 */

export const FIELD_STAFF_ROLES = ['fieldexecutive', 'storemanager', 'infraadmin'] as const;
export const fieldStaffRoleSchema = z.enum(FIELD_STAFF_ROLES, { message: 'Unknown directory' });
export type FieldStaffRole = z.infer<typeof fieldStaffRoleSchema>;

export const FIELD_PROFILE_LIMITS = { employeeCode: 40, designation: 100, area: 100, territory: 100, notes: 1000 } as const;

export const FIELD_STAFF_MESSAGES = {
  codeExists: 'Employee code is already used by another person',
  notFound: 'Person not found',
} as const;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Please use maximum ${max} characters`)
    .nullable()
    .default(null)
    .transform((v) => (v ? v : null));

export const fieldProfileInputSchema = z.strictObject({
  employeeCode: z
    .string()
    .trim()
    .max(FIELD_PROFILE_LIMITS.employeeCode, `Please use maximum ${FIELD_PROFILE_LIMITS.employeeCode} characters`)
    .regex(/^[\w./-]*$/, 'Employee code may contain letters, digits and . / - _ only')
    .nullable()
    .default(null)
    .transform((v) => (v ? v : null)),
  designation: optionalText(FIELD_PROFILE_LIMITS.designation),
  area: optionalText(FIELD_PROFILE_LIMITS.area),
  territory: optionalText(FIELD_PROFILE_LIMITS.territory),
  joinedOn: z.iso.date({ message: 'Enter a valid date (YYYY-MM-DD)' }).nullable().default(null),
  notes: optionalText(FIELD_PROFILE_LIMITS.notes),
});
export type FieldProfileInput = z.infer<typeof fieldProfileInputSchema>;
export const EMPTY_FIELD_PROFILE: FieldProfileInput = {
  employeeCode: null,
  designation: null,
  area: null,
  territory: null,
  joinedOn: null,
  notes: null,
};

/** A person of a directory as the form sends them: the user's fields (the role comes from the directory) and the profile. */
export const fieldStaffInputSchema = userInputSchema.omit({ userRole: true }).extend({
  fieldProfile: fieldProfileInputSchema.default(EMPTY_FIELD_PROFILE),
});
export type FieldStaffInput = z.infer<typeof fieldStaffInputSchema>;
export const fieldStaffCreateSchema = fieldStaffInputSchema.extend({
  /** The directory the person joins (the user's role). */
  role: fieldStaffRoleSchema,
  password: newPasswordSchema.optional(),
});
export type FieldStaffCreate = z.infer<typeof fieldStaffCreateSchema>;

export const fieldProfileSchema = z.object({
  employeeCode: z.string().nullable(),
  designation: z.string().nullable(),
  area: z.string().nullable(),
  territory: z.string().nullable(),
  joinedOn: z.string().nullable(),
  notes: z.string().nullable(),
});
export type FieldProfile = z.infer<typeof fieldProfileSchema>;

export const fieldStaffSchema = adminUserSchema.extend({
  fieldProfile: fieldProfileSchema,
  siteCount: z.number().int(),
  /** Tickets assigned to the person that are not resolved or closed. */
  openTickets: z.number().int(),
  can: z.object({ change: z.boolean(), delete: z.boolean() }),
});
export type FieldStaff = z.infer<typeof fieldStaffSchema>;

export const fieldStaffListQuerySchema = z.strictObject({
  role: fieldStaffRoleSchema,
  searchText: searchText.optional(),
  area: z.string().trim().min(1).max(FIELD_PROFILE_LIMITS.area).optional(),
  status: z.enum(['active', 'deactivated', 'all']).default('active'),
  page: pageParam,
  limit: limitParam(100, 20),
  orderBy: orderBy(['firstname', 'lastname', 'username', 'createdAt'] as const).default('firstname'),
});
export type FieldStaffListQuery = z.infer<typeof fieldStaffListQuerySchema>;
export const fieldStaffListSchema = z.object({ contents: z.array(fieldStaffSchema), totalCount: z.number().int() });

export const fieldStaffRoleQuerySchema = z.strictObject({ role: fieldStaffRoleSchema });
/** A person by id; with `role`, they must be in that directory (otherwise in any of the three). */
export const fieldStaffPersonQuerySchema = z.strictObject({ role: fieldStaffRoleSchema.optional() });
export const fieldStaffParamSchema = z.object({ id: idCoerced });
export const fieldStaffAreasSchema = z.object({ contents: z.array(z.string()) });

/** A ticket as the directory lists it (assigned to the person, or open at their sites for assigning). */
export const fieldStaffTicketSchema = z.object({
  id: z.number().int(),
  ticketId: z.string(),
  title: z.string(),
  status: z.string(),
  priority: z.string().nullable(),
  locationId: z.number().int().nullable(),
  locationName: z.string().nullable(),
  assignedTo: z.number().int().nullable(),
  createdAt: z.string(),
  version: z.number().int(),
});
export type FieldStaffTicket = z.infer<typeof fieldStaffTicketSchema>;
export const fieldStaffTicketsQuerySchema = z.strictObject({
  role: fieldStaffRoleSchema.optional(),
  /** assigned: the person's open tickets; assignable: open tickets at their sites the caller may see, not theirs. */
  scope: z.enum(['assigned', 'assignable']).default('assigned'),
  searchText: searchText.optional(),
  limit: limitParam(100, 50),
});
export const fieldStaffTicketsSchema = z.object({ contents: z.array(fieldStaffTicketSchema), totalCount: z.number().int() });
