import { TRAP_OIDS } from '@sitewatch/contracts';
import { describe, expect, it } from 'vitest';
import { alarmKeyOf, filterMatches, type MappingView } from './receiver.ts';
import { createStormGuard } from './storm.ts';
import { dedupeKeyOf, normalise, type RawNotification, v1TrapOid } from './trap.ts';

const v2 = (oid: string, extra: Array<{ oid: string; type: number; value: unknown }> = [], address = '127.0.0.1'): RawNotification => ({
  pdu: {
    type: 167,
    community: 'public',
    varbinds: [{ oid: TRAP_OIDS.sysUpTime, type: 67, value: 100 }, { oid: TRAP_OIDS.snmpTrapOid, type: 6, value: oid }, ...extra],
  },
  rinfo: { address, port: 5000 },
});

describe('storm guard', () => {
  it('drops repeats inside the window and lets them through after it', () => {
    const g = createStormGuard({ dedupeMs: 1000, ratePerSource: 100 });
    expect(g.admit('a', 'k', 0)).toBe('ok');
    expect(g.admit('a', 'k', 500)).toBe('deduped');
    expect(g.admit('a', 'k', 1001)).toBe('ok');
  });
  it('limits each source to its rate with a burst of two seconds, refilling over time', () => {
    const g = createStormGuard({ dedupeMs: 0, ratePerSource: 10 });
    const verdicts = Array.from({ length: 30 }, (_, i) => g.admit('a', `k${i}`, 0));
    expect(verdicts.filter((v) => v === 'ok')).toHaveLength(20);
    expect(g.admit('b', 'x', 0)).toBe('ok');
    expect(g.admit('a', 'later', 1000)).toBe('ok');
  });
});

describe('trap reading', () => {
  it('takes the source from snmpTrapAddress, then the sender', () => {
    const t = normalise(v2(TRAP_OIDS.linkDown, [{ oid: TRAP_OIDS.snmpTrapAddress, type: 64, value: '10.1.1.1' }]), 0);
    expect(t.candidates).toEqual(['10.1.1.1', '127.0.0.1']);
    expect(t.version).toBe('v2c');
    expect(t.trapOid).toBe(TRAP_OIDS.linkDown);
    expect(t.varbinds.map((v) => v.oid)).toEqual([TRAP_OIDS.snmpTrapAddress]);
  });
  it('maps v1 traps to their v2 trap OID (RFC 3584)', () => {
    expect(v1TrapOid('1.3.6.1.4.1.8072', 2, 0)).toBe(TRAP_OIDS.linkDown);
    expect(v1TrapOid('1.3.6.1.4.1.8072', 6, 17)).toBe('1.3.6.1.4.1.8072.0.17');
  });
  it('dedupes on content, not on uptime', () => {
    const a = normalise(v2('1.2.3.4', [{ oid: '1.2.3.5', type: 2, value: 1 }]), 0);
    const b = normalise({ ...v2('1.2.3.4', [{ oid: '1.2.3.5', type: 2, value: 1 }]) }, 0);
    b.upTime = 999;
    expect(dedupeKeyOf(a)).toBe(dedupeKeyOf(b));
  });
});

describe('filters and mappings', () => {
  const trap = normalise(
    v2(TRAP_OIDS.linkDown, [
      { oid: '1.3.6.1.2.1.2.2.1.1.4', type: 2, value: 4 },
      { oid: '1.3.6.1.4.1.9.1', type: 4, value: Buffer.from('Uplink A') },
    ]),
    0,
  );
  const base = {
    id: 1,
    oidPrefix: '',
    varbindOid: null,
    varbindValue: null,
    deviceId: null,
    assetId: null,
    minSeverity: null,
    destinationIds: [1],
  };
  const device = { id: 5, assetId: 9 };
  it('matches on OID prefix by whole arcs', () => {
    expect(filterMatches({ ...base, oidPrefix: '1.3.6.1.6.3.1.1.5' }, trap, device, null)).toBe(true);
    expect(filterMatches({ ...base, oidPrefix: '1.3.6.1.6.3.1.1.5.3' }, trap, device, null)).toBe(true);
    expect(filterMatches({ ...base, oidPrefix: '1.3.6.1.6.3.1.1.5.30' }, trap, device, null)).toBe(false);
  });
  it('matches on varbind text, device, site and severity', () => {
    expect(filterMatches({ ...base, varbindOid: '1.3.6.1.4.1.9', varbindValue: 'uplink' }, trap, device, null)).toBe(true);
    expect(filterMatches({ ...base, varbindOid: '1.3.6.1.4.1.9', varbindValue: 'downlink' }, trap, device, null)).toBe(false);
    expect(filterMatches({ ...base, deviceId: 6 }, trap, device, null)).toBe(false);
    expect(filterMatches({ ...base, assetId: 9 }, trap, device, null)).toBe(true);
    expect(filterMatches({ ...base, minSeverity: 'MAJOR' }, trap, device, 'CRITICAL')).toBe(true);
    expect(filterMatches({ ...base, minSeverity: 'MAJOR' }, trap, device, 'MINOR')).toBe(false);
    expect(filterMatches({ ...base, minSeverity: 'MAJOR' }, trap, device, null)).toBe(false);
  });
  it('keys an alarm per instance', () => {
    const m: MappingView = {
      id: 1,
      name: 'Link down',
      trapOid: TRAP_OIDS.linkDown,
      action: 'raise',
      alarmKey: 'link',
      instanceOid: '1.3.6.1.2.1.2.2.1.1',
      severity: 'MAJOR',
      createTicket: false,
      deviceType: null,
    };
    expect(alarmKeyOf(m, trap)).toEqual({ key: 'trap:link:4', instance: '4' });
    expect(alarmKeyOf({ ...m, instanceOid: null }, trap)).toEqual({ key: 'trap:link', instance: null });
  });
});
