/**
 * Roles of the specification (section 6). Kept free of zod (schemas are in role-schemas.ts) because the login page
 * loads this file.
 * "customer" is the customer-type role of plain customer users. */
export const ROLES = [
  'sysadmin',
  'customeradmin',
  'localadmin',
  'infraadmin',
  'vendor',
  'citylead',
  'areahead',
  'fieldexecutive',
  'storemanager',
  'regionalhead',
  'customer',
] as const;
export type Role = (typeof ROLES)[number];
/** The path segment of /{role}/login: a role, or "auth" for any role. */
export type LoginRole = 'auth' | Role;

export const isCustomerAdmin = (roles: readonly string[]) => roles.some((r) => r.includes('customeradmin'));

/** Roles that see every site of the tenant rather than only the ones assigned to them. */
export const ROLES_SEEING_ALL_SITES: readonly Role[] = ['sysadmin', 'customeradmin', 'localadmin'];

export const ROLE_LABELS: Record<Role, string> = {
  sysadmin: 'System Admin',
  customeradmin: 'Customer Admin',
  localadmin: 'Local Admin',
  infraadmin: 'Infra Admin',
  vendor: 'Vendor',
  citylead: 'City Lead',
  areahead: 'Area Head',
  fieldexecutive: 'Field Executive',
  storemanager: 'Store Manager',
  regionalhead: 'Regional Head',
  customer: 'Customer User',
};
