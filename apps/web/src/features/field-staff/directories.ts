import type { FieldStaffRole } from '@sitewatch/contracts/field-staff';
import { useLocation } from 'react-router';

/** One directory per field role: its route (SPEC 2.2), its names. */
export interface Directory {
  role: FieldStaffRole;
  base: string;
  title: string;
  singular: string;
}

export const DIRECTORIES: readonly Directory[] = [
  { role: 'fieldexecutive', base: '/field-executives', title: 'Field Executives', singular: 'field executive' },
  { role: 'storemanager', base: '/store-manager', title: 'Store Managers', singular: 'store manager' },
  { role: 'infraadmin', base: '/infra-admin', title: 'Infra Admins', singular: 'infra admin' },
];

/** The directory whose route the page is on. */
export function useDirectory(): Directory {
  const { pathname } = useLocation();
  return DIRECTORIES.find((d) => pathname === d.base || pathname.startsWith(`${d.base}/`)) ?? (DIRECTORIES[0] as Directory);
}
