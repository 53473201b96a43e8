import { describe, expect, it } from 'vitest';
import { isMobileNumber, mobileHint } from './mobile.ts';

describe('mobile numbers (SPEC 5 / 9: length 10 by default)', () => {
  it('takes ten digits, with an optional country code', () => {
    expect(isMobileNumber('9000000001')).toBe(true);
    expect(isMobileNumber('90000 00001')).toBe(true);
    expect(isMobileNumber('+919000000001')).toBe(true);
    expect(isMobileNumber('900000')).toBe(false);
    expect(isMobileNumber('90000000012')).toBe(false);
    expect(isMobileNumber('12-34')).toBe(false);
  });

  it('follows the customer’s number length', () => {
    expect(isMobileNumber('12345678', 8)).toBe(true);
    expect(isMobileNumber('9000000001', 8)).toBe(false);
    expect(mobileHint()).toBe('Enter a 10-digit mobile number');
  });
});
