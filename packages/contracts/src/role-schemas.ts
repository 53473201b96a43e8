import { z } from 'zod';
import { ROLES } from './roles.ts';

export const roleSchema = z.enum(ROLES);
export const loginRoleSchema = z.union([z.literal('auth'), roleSchema]);
