import { DEFAULT_LOGIN_ROLE } from '@sitewatch/contracts/constants';
import { type LoginRole, ROLE_LABELS, ROLES } from '@sitewatch/contracts/roles';

/** The first path segment of /{role}/login: a role of ROLES, or auth for any role. */
export const LOGIN_ROLES: readonly string[] = [DEFAULT_LOGIN_ROLE, ...ROLES];

export const isLoginRole = (value: string | undefined): value is LoginRole => Boolean(value && LOGIN_ROLES.includes(value));

export const roleLabel = (role: string): string => (ROLE_LABELS as Record<string, string>)[role] ?? role;
