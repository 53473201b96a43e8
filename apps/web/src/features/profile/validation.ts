/** Client-side checks that mirror the contracts (packages/contracts/src/auth.ts) so errors show before a round trip. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const TOTP_CODE = /^\d{6}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export interface PasswordErrors {
  oldPassword?: string;
  newPassword?: string;
  confirmPassword?: string;
}

export function checkPasswords(
  values: { oldPassword: string; newPassword: string; confirmPassword: string },
  t: (key: string) => string,
): PasswordErrors {
  const errors: PasswordErrors = {};
  if (!values.oldPassword) errors.oldPassword = t('password.required');
  if (values.newPassword.length < PASSWORD_MIN) errors.newPassword = t('password.tooShort');
  else if (values.newPassword.length > PASSWORD_MAX) errors.newPassword = t('password.tooLong');
  if (values.confirmPassword !== values.newPassword) errors.confirmPassword = t('password.mismatch');
  return errors;
}
