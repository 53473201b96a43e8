import { TRAP_OIDS, type TrapVarbind } from '@sitewatch/contracts';

/** One varbind as received, kept so that it can be sent on unchanged (values of OctetString/Opaque as hex). */
export interface WireVarbind {
  oid: string;
  /** net-snmp ObjectType number. */
  type: number;
  value: string | number | null;
  /** value is hex of a byte string. */
  hex?: boolean;
}

/** A received notification, normalised whatever its version. */
export interface Trap {
  /** performance.now() at receipt (receive-to-forward latency). */
  at: number;
  receivedAt: Date;
  /** The address the trap is about: snmpTrapAddress, else the v1 agent-addr, else the sender. */
  source: string;
  /** The UDP sender. */
  sender: string;
  version: 'v1' | 'v2c' | 'v3';
  inform: boolean;
  trapOid: string;
  upTime: number;
  /** Varbinds without sysUpTime.0 and snmpTrapOID.0. */
  varbinds: WireVarbind[];
  /** Addresses to try, in order, to find the device. */
  candidates: string[];
}

const PDU_TRAP_V1 = 164;
const PDU_INFORM = 166;
const TYPE_OCTET_STRING = 4;
const TYPE_IP_ADDRESS = 64;
const TYPE_OPAQUE = 68;
const TYPE_COUNTER64 = 70;

const TYPE_NAMES: Record<number, string> = {
  1: 'Boolean',
  2: 'Integer',
  4: 'OctetString',
  5: 'Null',
  6: 'OID',
  64: 'IpAddress',
  65: 'Counter',
  66: 'Gauge',
  67: 'TimeTicks',
  68: 'Opaque',
  70: 'Counter64',
  128: 'NoSuchObject',
  129: 'NoSuchInstance',
  130: 'EndOfMibView',
};

interface RawVarbind {
  oid: string;
  type: number;
  value: unknown;
}

export interface RawNotification {
  pdu: {
    type: number;
    varbinds?: RawVarbind[];
    enterprise?: string;
    agentAddr?: string;
    generic?: number;
    specific?: number;
    upTime?: number;
    community?: string;
    user?: string;
  };
  rinfo: { address: string; port: number };
}

function wire(vb: RawVarbind): WireVarbind {
  const v = vb.value;
  if (Buffer.isBuffer(v)) return { oid: vb.oid, type: vb.type, value: v.toString('hex'), hex: true };
  if (typeof v === 'bigint') return { oid: vb.oid, type: vb.type, value: v.toString() };
  if (typeof v === 'number' || typeof v === 'string') return { oid: vb.oid, type: vb.type, value: v };
  return { oid: vb.oid, type: vb.type, value: v === null || v === undefined ? null : String(v) };
}

const printable = /^[\x20-\x7e\t\r\n]*$/;

/** How a varbind reads on screen and in filters: byte strings as text when printable, else hex. */
export function displayValue(vb: WireVarbind): string {
  if (vb.value === null) return '';
  if (vb.hex) {
    const text = Buffer.from(String(vb.value), 'hex').toString('latin1');
    return printable.test(text) ? text : String(vb.value);
  }
  return String(vb.value);
}

export const forDisplay = (varbinds: WireVarbind[]): TrapVarbind[] =>
  varbinds.slice(0, 64).map((vb) => ({ oid: vb.oid, type: TYPE_NAMES[vb.type] ?? String(vb.type), value: displayValue(vb).slice(0, 512) }));

/** Back to what net-snmp sends. */
export function toNetSnmp(vb: WireVarbind): { oid: string; type: number; value: unknown } {
  if (vb.hex) return { oid: vb.oid, type: vb.type, value: Buffer.from(String(vb.value), 'hex') };
  if (vb.type === TYPE_COUNTER64 && typeof vb.value === 'string') {
    const big = BigInt(vb.value);
    const buf = Buffer.alloc(8);
    buf.writeBigUInt64BE(big);
    return { oid: vb.oid, type: vb.type, value: buf };
  }
  return { oid: vb.oid, type: vb.type, value: vb.value };
}

/** RFC 3584 §3.1: the SNMPv2 trap OID of a v1 trap. */
export function v1TrapOid(enterprise: string, generic: number, specific: number): string {
  if (generic >= 0 && generic < 6) return `1.3.6.1.6.3.1.1.5.${generic + 1}`;
  return `${enterprise}.0.${specific}`;
}

export function normalise(n: RawNotification, at: number): Trap {
  const pdu = n.pdu;
  const all = (pdu.varbinds ?? []).map(wire);
  const v1 = pdu.type === PDU_TRAP_V1;
  let trapOid = '';
  let upTime = 0;
  const varbinds: WireVarbind[] = [];
  for (const vb of all) {
    if (!v1 && vb.oid === TRAP_OIDS.sysUpTime) upTime = Number(vb.value) || 0;
    else if (!v1 && vb.oid === TRAP_OIDS.snmpTrapOid) trapOid = String(vb.value ?? '');
    else varbinds.push(vb);
  }
  if (v1) {
    trapOid = v1TrapOid(pdu.enterprise ?? '', pdu.generic ?? 6, pdu.specific ?? 0);
    upTime = pdu.upTime ?? 0;
  }
  const candidates: string[] = [];
  const trapAddress = varbinds.find((vb) => vb.oid === TRAP_OIDS.snmpTrapAddress && vb.type === TYPE_IP_ADDRESS);
  if (trapAddress && typeof trapAddress.value === 'string') candidates.push(trapAddress.value);
  if (v1 && pdu.agentAddr && pdu.agentAddr !== '0.0.0.0') candidates.push(pdu.agentAddr);
  const sender = n.rinfo.address.replace(/^::ffff:/, '');
  candidates.push(sender);
  return {
    at,
    receivedAt: new Date(),
    source: candidates[0] as string,
    sender,
    version: v1 ? 'v1' : pdu.user !== undefined ? 'v3' : 'v2c',
    inform: pdu.type === PDU_INFORM,
    trapOid,
    upTime,
    varbinds,
    candidates: [...new Set(candidates)],
  };
}

/** The raw trap as kept on an alarm and in the unmatched log (never the community or user). */
export const rawOf = (trap: Trap) => ({
  version: trap.version,
  inform: trap.inform,
  source: trap.source,
  sender: trap.sender,
  trapOid: trap.trapOid,
  upTime: trap.upTime,
  receivedAt: trap.receivedAt.toISOString(),
  varbinds: forDisplay(trap.varbinds),
});

/** What identifies a repeat of the same trap (sysUpTime aside). */
export const dedupeKeyOf = (trap: Trap) => {
  let key = `${trap.source}|${trap.trapOid}`;
  for (const vb of trap.varbinds) key += `|${vb.oid}=${vb.value}`;
  return key;
};

export const isByteString = (type: number) => type === TYPE_OCTET_STRING || type === TYPE_OPAQUE;
export const IP_ADDRESS_TYPE = TYPE_IP_ADDRESS;
