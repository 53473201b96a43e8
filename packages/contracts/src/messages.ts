/** Message texts of the product, word for word as the specification states them. */
export const LOGIN_MESSAGES = {
  invalidCredentials: 'Invalid credentials',
  invalidUserName: 'Invalid UserName',
  accountLocked: 'Account Locked! Please try again later',
  captchaGenerationFailed: 'Unable to generate Captcha',
  captchaVerificationFailed: 'Captcha Verification Failed!',
  invalidCaptcha: 'Invalid Captcha',
  loginFailed: 'Login Failed',
  mobileNotRegistered: 'This mobile number is not registered!',
  otpIncorrect: 'The OTP you entered is incorrect. Please try again.',
  unauthorized: 'Unauthorized',
  notFound: 'Not Found',
  serviceUnavailable: 'Service Unavailable',
  unknownError: 'Unknown Error',
  loginSuccessful: 'Login Successful',
  otpSent: 'OTP sent successfully to your mobile number',
} as const;

export const COMMON_MESSAGES = {
  failedToConnectServer: 'Failed to connect server',
  settingsUpdated: 'Settings updated successfully',
  failedToUpdateSettings: 'Failed to update Settings',
  successfullyCreated: 'Successfully Created',
  successfullyUpdated: 'Successfully Updated',
  successfullyDeleted: 'Successfully Deleted',
  userAlreadyExists: 'User already exists',
  maxCharacters: 'Please use maximum 250 characters',
  attachmentTooLarge: 'Please Select Attatchment Size less Than 1 MB',
  invalidJson: 'Invalid JSON',
  noValidImportData: 'File contains no valid data for importing',
} as const;

export const VALIDATION_MESSAGES = {
  required: (field: string) => `${field} is required`,
  dateFailed: 'Date validation failed',
  dateTimeFailed: 'DateTime validation failed',
  notANumber: 'Input Value is not a Number',
  lessThan: (min: number) => `Input Value cannot be less than ${min}`,
  greaterThan: (max: number) => `Input Value cannot be greater than ${max}`,
  fillRequired: 'Please Fill all the required fields',
} as const;

/** Server-side texts that the specification leaves open. */
export const SERVER_MESSAGES = {
  tenantNotFound: 'Tenant not found',
  csrfFailed: 'CSRF token missing or incorrect',
  sessionExpired: 'Session expired',
  refreshReused: 'Refresh token already used; the session was ended',
  forbidden: 'You do not have permission to perform this action.',
  wrongPassword: 'Current password is incorrect',
  weakPassword: 'Password must be at least 8 characters and not a common password',
  mfaRequired: 'Enter the code from your authenticator app',
  mfaInvalid: 'The code is not valid',
  mfaSetupRequired: 'Your role requires two-factor authentication; set it up to continue',
  tooManyRequests: 'Too many requests; please wait and try again',
  validationFailed: 'Validation failed',
  serviceUnavailable: 'The service is briefly unavailable; please try again shortly',
} as const;
