import { z } from 'zod';
import { loginRoleSchema, roleSchema } from './role-schemas.ts';

export const permissionSchema = z.object({ codename: z.string(), name: z.string() });
export const groupSchema = z.object({ id: z.number().int(), name: z.string(), permissions: z.array(permissionSchema) });

export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  mobile: z.string().nullable(),
  userRole: z.array(roleSchema),
  groups: z.array(groupSchema),
  profile: z.object({ avatar: z.string().nullable().optional() }).catchall(z.unknown()),
  notificationConfig: z.object({ popup: z.boolean() }),
  mfaEnabled: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

export const tokensSchema = z.object({ access: z.string(), refresh: z.string() });
export const currentLoginSchema = tokensSchema.extend({ user: userSchema });
export type CurrentLogin = z.infer<typeof currentLoginSchema>;

export const captchaSchema = z.object({ captchaId: z.uuid(), image: z.string() });

const username = z.string().trim().min(1, 'Username is required').max(150);
const password = z.string().min(1, 'Password is required').max(128);

export const passwordLoginSchema = z.object({
  username,
  password,
  captchaId: z.uuid(),
  captcha: z.string().trim().min(1).max(12),
  role: loginRoleSchema.default('auth'),
});

/** Either signed in, or a second factor is still owed. */
export const loginResultSchema = z.union([
  currentLoginSchema.extend({ message: z.string() }),
  z.object({ mfaRequired: z.literal(true), mfaToken: z.string(), setupRequired: z.boolean() }),
]);
export type LoginResult = z.infer<typeof loginResultSchema>;

export const mobileSchema = z
  .string()
  .trim()
  .regex(/^\+?\d{6,15}$/, 'Enter a valid mobile number');
export const otpSendSchema = z.object({ mobile: mobileSchema, role: loginRoleSchema.default('auth') });
export const otpVerifySchema = z.object({
  mobile: mobileSchema,
  otp: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The OTP is 6 digits'),
  role: loginRoleSchema.default('auth'),
});
export const messageSchema = z.object({ message: z.string() });

export const totpLoginSchema = z.object({
  mfaToken: z.string().min(1),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});
export const totpSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export const totpCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});
/** Setting up the second factor during a sign-in that requires it. */
export const totpEnrolSchema = z.object({
  mfaToken: z.string().min(1),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});

export const refreshRequestSchema = z.object({ refresh: z.string().min(1) });
export const logoutResultSchema = z.object({ redirectURL: z.string() });

export const passwordPolicy = z
  .string()
  .min(8, 'Password must be at least 8 characters')
  .max(128, 'Password must be at most 128 characters');
export const changePasswordSchema = z
  .object({ oldPassword: z.string().min(1).max(128), newPassword: passwordPolicy, confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] });

export const profileUpdateSchema = z.object({
  firstname: z.string().trim().min(1).max(100),
  lastname: z.string().trim().max(100),
  email: z.email().max(254),
  mobile: z
    .string()
    .trim()
    .regex(/^\+?\d{6,15}$/)
    .nullable(),
  notificationConfig: z.object({ popup: z.boolean() }),
});

export const sessionSchema = z.object({
  id: z.uuid(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  loginMethod: z.string(),
  current: z.boolean(),
});
export const sessionListSchema = z.object({ contents: z.array(sessionSchema), totalCount: z.number().int() });
/** POST /api/auth/sessions/sign-out-others/: how many other sessions were ended. */
export const signOutOthersResultSchema = z.object({ ended: z.number().int() });

export const versionSchema = z.object({
  version: z.object({
    gen4: z.string().optional(),
    IOTFW: z.string().optional(),
    iotGateway: z.string().optional(),
    AIFW: z.string().optional(),
    analyticsFW: z.string().optional(),
  }),
});

export const outboxMessageSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  body: z.string(),
  createdAt: z.string(),
});
export const outboxSchema = z.object({ contents: z.array(outboxMessageSchema), totalCount: z.number().int() });
