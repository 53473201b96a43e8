import { describe, expect, it } from 'vitest';
import { alarmActionQuestion } from './devices.ts';

describe('device toggle confirmations (SPEC 4)', () => {
  it('asks in the specification’s words', () => {
    expect(alarmActionQuestion('maintenance', true)).toBe('Are you sure you want to enable Maintenance mode?');
    expect(alarmActionQuestion('maintenance', false)).toBe('Are you sure you want to disable Maintenance mode?');
    expect(alarmActionQuestion('muteDevice', true)).toBe('Mute this device?');
    expect(alarmActionQuestion('muteDevice', false)).toBe('Unmute this device?');
    expect(alarmActionQuestion('enableDevice', true)).toBe('Disable this device?');
    expect(alarmActionQuestion('enableDevice', false)).toBe('Enable this device?');
  });
});
