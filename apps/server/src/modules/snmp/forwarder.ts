import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { TRAP_MESSAGES, TRAP_OIDS } from '@sitewatch/contracts';
import snmp from 'net-snmp';
import type { NetworkMatcher, OutboundNetworks } from '../../platform/outbound-networks.ts';
import { addressAllowed } from '../video/network.ts';
import { IP_ADDRESS_TYPE, type Trap, toNetSnmp, type WireVarbind } from './trap.ts';

export type ForwardNetworks = 'public' | 'private' | 'any';

/** A destination as the forwarder uses it, secrets opened. */
export interface DestinationTarget {
  id: number;
  tenantId: number;
  host: string;
  port: number;
  version: 'v1' | 'v2c' | 'v3';
  mode: 'trap' | 'inform';
  community: string;
  user: { name: string; level: string; authProtocol: string; authKey: string; privProtocol: string; privKey: string };
  /** Changes whenever the destination does (a new session is opened). */
  revision: string;
}

/** What is sent: the trap as received, kept whole so that a retry sends the same thing. */
export interface OutgoingTrap {
  trapOid: string;
  upTime: number;
  source: string;
  varbinds: WireVarbind[];
}

export const outgoingOf = (trap: Trap): OutgoingTrap => ({
  trapOid: trap.trapOid,
  upTime: trap.upTime,
  source: trap.source,
  varbinds: trap.varbinds,
});

type Session = ReturnType<typeof snmp.createSession>;

interface Slot {
  tenantId: number;
  revision: string;
  session: Session | null;
  denied: string | null;
  waiting: Array<() => void>;
  inflight: number;
}

const MAX_WAITING = 1000;
const MAX_INFLIGHT_INFORMS = 500;

/** Resolves the host and applies the outbound network rule (the same as camera URLs) and the tenant's networks. */
export async function checkTrapHost(
  host: string,
  networks: ForwardNetworks,
  tenant: NetworkMatcher,
): Promise<{ ok: true; address: string } | { ok: false; reason: string }> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((a) => a.address);
  } catch {
    return { ok: false, reason: TRAP_MESSAGES.hostUnresolved };
  }
  if (addresses.length === 0) return { ok: false, reason: TRAP_MESSAGES.hostUnresolved };
  if (addresses.some((a) => !addressAllowed(a, networks))) return { ok: false, reason: TRAP_MESSAGES.hostNotAllowed };
  if (addresses.some((a) => !tenant.allows(a))) return { ok: false, reason: TRAP_MESSAGES.hostOutsideNetworks };
  return { ok: true, address: addresses.find((a) => isIP(a) === 4) ?? (addresses[0] as string) };
}

const V1_GENERIC_PREFIX = '1.3.6.1.6.3.1.1.5.';

/** net-snmp's trap() argument for a v1 destination: generic traps by number, enterprise-specific by OID. */
function v1TypeOrOid(trapOid: string): number | string {
  if (trapOid.startsWith(V1_GENERIC_PREFIX)) {
    const n = Number(trapOid.slice(V1_GENERIC_PREFIX.length));
    if (Number.isInteger(n) && n >= 1 && n <= 6) return n - 1;
  }
  const specific = /^(.+)\.0\.(\d+)$/.exec(trapOid);
  return specific ? `${specific[1]}.${specific[2]}` : trapOid;
}

function varbindsFor(trap: OutgoingTrap): snmp.Varbind[] {
  const out = trap.varbinds.map(toNetSnmp) as snmp.Varbind[];
  // the original source travels with the trap
  if (isIP(trap.source) === 4 && !trap.varbinds.some((vb) => vb.oid === TRAP_OIDS.snmpTrapAddress))
    out.push({ oid: TRAP_OIDS.snmpTrapAddress, type: IP_ADDRESS_TYPE as snmp.ObjectType, value: trap.source });
  return out;
}

export interface ForwardOutcome {
  destination: DestinationTarget;
  trap: OutgoingTrap;
  error: Error | null;
  /** An inform that was not acknowledged (the caller queues a retry). */
  unacknowledged: boolean;
}

/**
 * Sends traps and informs to destinations over one net-snmp session per destination (opened on first use, after
 * the host passes the network rule; reopened when the destination changes). `send` never waits: outcomes come
 * back through `onOutcome`.
 */
export function createForwarder(opts: {
  networks: ForwardNetworks;
  /** The networks each tenant's destinations may be in. */
  outbound: Pick<OutboundNetworks, 'of'>;
  informTimeoutMs: number;
  onOutcome(outcome: ForwardOutcome): void;
  onDropped(destination: DestinationTarget, trap: OutgoingTrap, reason: string): void;
}) {
  const slots = new Map<number, Slot>();

  function close(slot: Slot) {
    try {
      slot.session?.close();
    } catch {
      // already closed
    }
  }

  async function open(dest: DestinationTarget, slot: Slot) {
    const checked = await checkTrapHost(dest.host, opts.networks, await opts.outbound.of(dest.tenantId));
    if (slot.revision !== dest.revision) return;
    if (!checked.ok) {
      slot.denied = checked.reason;
    } else {
      const options = {
        trapPort: dest.port,
        port: dest.port,
        retries: 0,
        timeout: opts.informTimeoutMs,
        transport: (isIP(checked.address) === 6 ? 'udp6' : 'udp4') as 'udp4' | 'udp6',
      };
      let session: Session;
      if (dest.version === 'v3') {
        const level = snmp.SecurityLevel[dest.user.level as keyof typeof snmp.SecurityLevel];
        session = snmp.createV3Session(
          checked.address,
          {
            name: dest.user.name,
            level,
            authProtocol: snmp.AuthProtocols[dest.user.authProtocol as keyof typeof snmp.AuthProtocols],
            authKey: dest.user.authKey,
            privProtocol: snmp.PrivProtocols[dest.user.privProtocol as keyof typeof snmp.PrivProtocols],
            privKey: dest.user.privKey,
          },
          options,
        );
      } else {
        session = snmp.createSession(checked.address, dest.community, {
          ...options,
          version: (dest.version === 'v1' ? snmp.Version1 : snmp.Version2c) as typeof snmp.Version1,
        });
      }
      session.on('error', () => undefined);
      slot.session = session;
    }
    const waiting = slot.waiting;
    slot.waiting = [];
    for (const go of waiting) go();
  }

  function slotFor(dest: DestinationTarget): Slot {
    let slot = slots.get(dest.id);
    if (slot && slot.revision === dest.revision) return slot;
    if (slot) close(slot);
    slot = { tenantId: dest.tenantId, revision: dest.revision, session: null, denied: null, waiting: [], inflight: 0 };
    slots.set(dest.id, slot);
    const opening = slot;
    void open(dest, opening).catch((error: Error) => {
      opening.denied = error.message;
      for (const go of opening.waiting.splice(0)) go();
    });
    return slot;
  }

  function transmit(dest: DestinationTarget, slot: Slot, trap: OutgoingTrap, done: (error: Error | null) => void) {
    const session = slot.session as Session;
    const varbinds = varbindsFor(trap);
    try {
      if (dest.mode === 'inform' && dest.version !== 'v1') {
        slot.inflight++;
        session.inform(trap.trapOid, varbinds, { upTime: trap.upTime }, (error: Error | null) => {
          slot.inflight--;
          done(error);
        });
      } else if (dest.version === 'v1') {
        const agentAddr = isIP(trap.source) === 4 ? trap.source : '0.0.0.0';
        session.trap(v1TypeOrOid(trap.trapOid), varbinds, { agentAddr, upTime: trap.upTime }, (error: Error | null) => done(error));
      } else {
        session.trap(trap.trapOid, varbinds, { upTime: trap.upTime }, (error: Error | null) => done(error));
      }
    } catch (error) {
      done(error as Error);
    }
  }

  function send(dest: DestinationTarget, trap: OutgoingTrap) {
    const slot = slotFor(dest);
    const go = () => {
      if (slot.denied !== null || !slot.session) {
        opts.onDropped(dest, trap, slot.denied ?? 'destination could not be opened');
        return;
      }
      if (dest.mode === 'inform' && slot.inflight >= MAX_INFLIGHT_INFORMS) {
        opts.onDropped(dest, trap, 'too many unacknowledged informs');
        return;
      }
      transmit(dest, slot, trap, (error) =>
        opts.onOutcome({ destination: dest, trap, error, unacknowledged: error !== null && dest.mode === 'inform' }),
      );
    };
    if (slot.session || slot.denied !== null) go();
    else if (slot.waiting.length < MAX_WAITING) slot.waiting.push(go);
    else opts.onDropped(dest, trap, 'destination not ready');
  }

  return {
    send,
    /** One send whose outcome is awaited (the inform retry job). */
    sendNow(dest: DestinationTarget, trap: OutgoingTrap): Promise<Error | null> {
      return new Promise((resolve) => {
        const slot = slotFor(dest);
        const go = () => {
          if (slot.denied !== null || !slot.session) resolve(new Error(slot.denied ?? 'destination could not be opened'));
          else transmit(dest, slot, trap, resolve);
        };
        if (slot.session || slot.denied !== null) go();
        else slot.waiting.push(go);
      });
    },
    /** Closes the session of a destination that was removed. */
    forget(id: number) {
      const slot = slots.get(id);
      if (slot) close(slot);
      slots.delete(id);
    },
    /** Closes a tenant's sessions (its networks changed): the next trap checks its destinations again. */
    forgetTenant(tenantId: number) {
      for (const [id, slot] of slots)
        if (slot.tenantId === tenantId) {
          close(slot);
          slots.delete(id);
        }
    },
    close() {
      for (const slot of slots.values()) close(slot);
      slots.clear();
    },
  };
}
export type Forwarder = ReturnType<typeof createForwarder>;
