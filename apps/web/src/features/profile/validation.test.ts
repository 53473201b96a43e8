import { describe, expect, it } from 'vitest';
import { checkPasswords, EMAIL } from './validation.ts';

const t = (key: string) => key;

describe('checkPasswords', () => {
  it('needs the old password, 8 to 128 characters and a matching confirmation', () => {
    expect(checkPasswords({ oldPassword: '', newPassword: 'short', confirmPassword: 'x' }, t)).toEqual({
      oldPassword: 'password.required',
      newPassword: 'password.tooShort',
      confirmPassword: 'password.mismatch',
    });
    expect(checkPasswords({ oldPassword: 'a', newPassword: 'x'.repeat(129), confirmPassword: 'x'.repeat(129) }, t)).toEqual({
      newPassword: 'password.tooLong',
    });
    expect(checkPasswords({ oldPassword: 'a', newPassword: 'long enough', confirmPassword: 'long enough' }, t)).toEqual({});
  });
  it('checks e-mail shapes like the contracts', () => {
    expect(EMAIL.test('a@b.co')).toBe(true);
    expect(EMAIL.test('a@b')).toBe(false);
  });
});
