import { z } from 'zod';
import { idCoerced, idSchema } from './common.ts';
import { MOBILE_NUMBER_LENGTH } from './constants.ts';
import type { PermissionCodename } from './permissions.ts';

/** The vendors directory (SPEC 1 "Vendors", 2.2 /vendors, /vendors/create, /vendors/edit/{id}; role `vendor`, SPEC 6). */

export const VENDOR_PERMISSIONS = {
  view: 'view_vendor',
  add: 'add_vendor',
  change: 'change_vendor',
  delete: 'delete_vendor',
} as const satisfies Record<string, PermissionCodename>;

export const VENDOR_LIMITS = {
  companyMax: 150,
  contactMax: 150,
  emailMax: 254,
  addressMax: 500,
  notesMax: 2000,
  sites: 500,
  issueTypes: 100,
  users: 50,
  searchMax: 100,
} as const;

export const VENDOR_MESSAGES = {
  created: 'Vendor created successfully',
  updated: 'Vendor updated successfully',
  deleted: 'Vendor deleted successfully',
  exists: 'A vendor with this company name already exists',
  notFound: 'Vendor not found',
  hasOpenTickets: 'This vendor has open tickets: close them or assign them to another vendor before deleting it',
  unknownSite: 'A chosen site does not exist',
  unknownIssueType: 'A chosen issue type does not exist',
  unknownUser: 'A chosen user account does not exist or is not of role vendor',
  userTaken: 'A chosen user account already works for another vendor',
  siteRequired: 'Choose at least one site',
  unknownVendor: 'The vendor does not exist',
  inactiveVendor: 'The vendor is not active',
  vendorNotAtSite: "The vendor does not serve this ticket's site",
} as const;

const text = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .max(max, `Please use maximum ${max} characters`);

export const vendorMobileSchema = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${MOBILE_NUMBER_LENGTH}}$`), `Mobile number must be ${MOBILE_NUMBER_LENGTH} digits`);

const idList = (max: number, what: string) =>
  z
    .array(idSchema)
    .max(max, `Choose at most ${max} ${what}`)
    .transform((ids) => [...new Set(ids)]);

export const vendorInputSchema = z.object({
  company: text('Company name', VENDOR_LIMITS.companyMax).min(1, 'Company name is required'),
  contactPerson: text('Contact person', VENDOR_LIMITS.contactMax).default(''),
  email: z
    .union([
      z.literal(''),
      z.email({ message: 'Enter a valid e-mail address' }).max(VENDOR_LIMITS.emailMax, 'Please use maximum 254 characters'),
    ])
    .default(''),
  phone: z.union([z.literal(''), vendorMobileSchema]).default(''),
  address: text('Address', VENDOR_LIMITS.addressMax).default(''),
  notes: text('Notes', VENDOR_LIMITS.notesMax).default(''),
  active: z.boolean().default(true),
  /** The sites the vendor serves. */
  assetIds: idList(VENDOR_LIMITS.sites, 'sites').default([]),
  /** The helpdesk issue types the vendor serves. */
  issueTypeIds: idList(VENDOR_LIMITS.issueTypes, 'issue types').default([]),
  /** The vendor's user accounts (users of role vendor). */
  userIds: idList(VENDOR_LIMITS.users, 'user accounts').default([]),
});
export type VendorInput = z.infer<typeof vendorInputSchema>;

const named = z.object({ id: z.number().int(), name: z.string() });

export const vendorSummarySchema = z.object({
  id: z.number().int(),
  company: z.string(),
  contactPerson: z.string(),
  email: z.string(),
  phone: z.string(),
  active: z.boolean(),
  /** The sites the caller may see among the ones the vendor serves. */
  sites: z.array(named),
  issueTypes: z.array(named),
  openTickets: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type VendorSummary = z.infer<typeof vendorSummarySchema>;

export const vendorSchema = vendorSummarySchema.extend({
  address: z.string(),
  notes: z.string(),
  users: z.array(z.object({ id: z.number().int(), name: z.string(), username: z.string(), email: z.string(), isActive: z.boolean() })),
  /** What the caller may do with this vendor. */
  can: z.object({ change: z.boolean(), delete: z.boolean() }),
});
export type Vendor = z.infer<typeof vendorSchema>;

export const vendorListQuerySchema = z.strictObject({
  search: z.string().trim().min(1).max(VENDOR_LIMITS.searchMax, 'Please use maximum 100 characters').optional(),
  site: idCoerced.optional(),
  issueType: idCoerced.optional(),
  active: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export type VendorListQuery = z.infer<typeof vendorListQuerySchema>;

export const vendorListSchema = z.object({ contents: z.array(vendorSummarySchema), totalCount: z.number().int() });
export type VendorList = z.infer<typeof vendorListSchema>;

export const vendorTicketsQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
