import { z } from 'zod';
import { roleSchema } from './role-schemas.ts';
import { newPasswordSchema, userInputSchema } from './user-admin.ts';

/** Self-registration (SPEC 2.3 /register, /register/request-done, 2.2 /email-done, /registration-requests/{id}/view). */

export const REGISTRATION_MESSAGES = {
  domainNotAllowed: 'The Email Domain is not Whitelisted ! Please Contact Administrator',
  exists: 'User already exists',
  requested: 'Your request has been sent. Check your e-mail to confirm your address.',
  confirmed: 'Your e-mail address is confirmed. An administrator will review your request.',
  invalidLink: 'This link is invalid or has expired',
  fetchFailed: 'Error Fetching Pending Lists',
  approved: 'User created successfully',
  rejected: 'Request rejected',
  alreadyDecided: 'This request has already been decided',
} as const;

export const registrationStatusSchema = z.enum(['unconfirmed', 'pending', 'approved', 'rejected']);
export type RegistrationStatus = z.infer<typeof registrationStatusSchema>;

export const registerSchema = userInputSchema.pick({ username: true, email: true, firstname: true, lastname: true, mobile: true }).extend({
  password: newPasswordSchema,
  captchaId: z.uuid({ message: 'Captcha Verification Failed!' }),
  captcha: z.string().trim().min(1, 'Captcha is required').max(12),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const confirmEmailSchema = z.object({ token: z.string().min(20).max(200) });

export const registrationRequestSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  mobile: z.string().nullable(),
  status: registrationStatusSchema,
  createdAt: z.string(),
  confirmedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
  userId: z.number().int().nullable(),
});
export type RegistrationRequest = z.infer<typeof registrationRequestSchema>;
export const registrationListSchema = z.object({ contents: z.array(registrationRequestSchema), totalCount: z.number().int() });
export const registrationQuerySchema = z.strictObject({
  status: registrationStatusSchema.default('pending'),
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const approveSchema = z.object({
  userRole: z.array(roleSchema).min(1, 'Choose at least one role').max(4),
  groupId: z.number().int().positive().max(2147483647).nullable().default(null),
  assetIds: z.array(z.number().int().positive().max(2147483647)).max(500).default([]),
});
export type ApproveInput = z.infer<typeof approveSchema>;
export const rejectSchema = z.object({
  reason: z.string({ message: 'Reason is required' }).trim().min(1, 'Reason is required').max(250, 'Please use maximum 250 characters'),
});
