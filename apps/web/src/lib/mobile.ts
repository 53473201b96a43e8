import { MOBILE_NUMBER_LENGTH } from '@sitewatch/contracts/constants';

/**
 * SPEC 5 / 9: a mobile number has the customer's number length (default 10) of digits, optionally after a + and a
 * country code of one to three digits. Spaces, dashes and brackets typed for readability are ignored.
 */
export const cleanMobile = (value: string) => value.replace(/[\s()-]/g, '');

export function isMobileNumber(value: string, length: number = MOBILE_NUMBER_LENGTH): boolean {
  const number = cleanMobile(value);
  return new RegExp(`^(\\+\\d{1,3})?\\d{${length}}$`).test(number);
}

export const mobileHint = (length: number = MOBILE_NUMBER_LENGTH) => `Enter a ${length}-digit mobile number`;
