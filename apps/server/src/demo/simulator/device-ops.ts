import { ACCESS_KEYS, DEVICE_OPS_METHODS, ROUTER_KEYS, RTU_KEYS } from '@sitewatch/contracts';

type Values = Record<string, number | boolean | string>;
/** What the physics read of a device's site. */
interface SiteLike {
  longitude: number;
  mainsOn: boolean;
}
const localHour = (now: number, longitude: number) => (((now / 3_600_000 + longitude / 15) % 24) + 24) % 24;

/**
 * Physics of the device operations kinds: access controllers (doors with readers: badges granted and denied, now and
 * then a forced door or one held open), routers (wired WAN with cellular backup, signal per modem, data usage,
 * uptime, reboots) and ethernet RTUs (digital inputs that follow the site, outputs switched by commands).
 */

/** How many doors an access controller has (the demo seeder names them): one or two. */
export const doorCountFor = (deviceId: number) => 1 + (deviceId % 2);
export const RTU_INPUTS = 8;
export const RTU_OUTPUTS = 4;

const CREDENTIALS = ['Card 1042', 'Card 1107', 'Card 2210', 'Card 3318', 'PIN 0457', 'Card 4501', 'Card 5120', 'Mobile key 88'];

/** Events waiting to be reported with the next publish (one per message: `accessEvent` is a single key). */
const pending = new WeakMap<Values, string[]>();
const queue = (values: Values, door: number, kind: string, credential = '') => {
  const list = pending.get(values) ?? [];
  list.push(JSON.stringify({ door, kind, credential }));
  pending.set(values, list);
};

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export function deviceOpsInitial(type: string, id: number, random: () => number): Values | null {
  switch (type) {
    case 'ACCESSCONTROL': {
      const v: Values = { [ACCESS_KEYS.anyForced]: false, [ACCESS_KEYS.anyHeldOpen]: false, doorOpen: false, lastAccess: '' };
      for (let d = 1; d <= doorCountFor(id); d++) {
        v[ACCESS_KEYS.open(d)] = false;
        v[ACCESS_KEYS.forced(d)] = false;
        v[ACCESS_KEYS.heldOpen(d)] = false;
      }
      return v;
    }
    case 'ROUTER':
      return {
        [ROUTER_KEYS.up('wan')]: true,
        [ROUTER_KEYS.up('cell1')]: true,
        [ROUTER_KEYS.signal('cell1')]: -70,
        [ROUTER_KEYS.up('cell2')]: random() < 0.7,
        [ROUTER_KEYS.signal('cell2')]: -80,
        [ROUTER_KEYS.activeInterface]: 'wan',
        [ROUTER_KEYS.dataUsageMb]: round(random() * 400, 1),
        [ROUTER_KEYS.uptimeSeconds]: Math.round(3600 + random() * 20 * 86_400),
        [ROUTER_KEYS.wanIp]: `100.${64 + (id % 60)}.${(id * 7) % 250}.${1 + (id % 250)}`,
        signalStrength: -70,
        rxKbps: 500,
        txKbps: 120,
        wanUp: true,
      };
    case 'ETH': {
      const v: Values = {};
      for (let i = 1; i <= RTU_INPUTS; i++) v[RTU_KEYS.input(i)] = i === 1;
      for (let o = 1; o <= RTU_OUTPUTS; o++) v[RTU_KEYS.output(o)] = o === 2 && random() < 0.5;
      return v;
    }
    default:
      return null;
  }
}

interface StepContext {
  id: number;
  site: SiteLike;
  now: number;
  dt: number;
  random: () => number;
}

function stepAccess(v: Values, c: StepContext) {
  delete v[ACCESS_KEYS.event];
  const hour = localHour(c.now, c.site.longitude);
  const busy = hour >= 7 && hour < 20;
  const doors = doorCountFor(c.id);
  const p = (perHour: number) => 1 - Math.exp((-perHour * c.dt) / 3600);
  let anyOpen = false;
  for (let d = 1; d <= doors; d++) {
    // a forced or held-open door settles after a few minutes
    if (v[ACCESS_KEYS.forced(d)] && c.random() < p(12)) v[ACCESS_KEYS.forced(d)] = false;
    if (v[ACCESS_KEYS.heldOpen(d)] && c.random() < p(20)) v[ACCESS_KEYS.heldOpen(d)] = false;
    v[ACCESS_KEYS.open(d)] = Boolean(v[ACCESS_KEYS.forced(d)] || v[ACCESS_KEYS.heldOpen(d)]);
    const credential = CREDENTIALS[Math.floor(c.random() * CREDENTIALS.length)] as string;
    if (c.random() < p(busy ? 20 : 1)) {
      queue(v, d, 'granted', credential);
      v[ACCESS_KEYS.open(d)] = true;
      v.lastAccess = credential;
    } else if (c.random() < p(busy ? 1.5 : 0.3)) queue(v, d, 'denied', credential);
    else if (!v[ACCESS_KEYS.forced(d)] && c.random() < p(busy ? 0.02 : 0.06)) {
      v[ACCESS_KEYS.forced(d)] = true;
      v[ACCESS_KEYS.open(d)] = true;
      queue(v, d, 'forced');
    } else if (!v[ACCESS_KEYS.heldOpen(d)] && c.random() < p(busy ? 0.3 : 0.05)) {
      v[ACCESS_KEYS.heldOpen(d)] = true;
      v[ACCESS_KEYS.open(d)] = true;
      queue(v, d, 'held_open');
    }
    anyOpen ||= Boolean(v[ACCESS_KEYS.open(d)]);
  }
  v.doorOpen = anyOpen;
  let forced = false;
  let held = false;
  for (let d = 1; d <= doors; d++) {
    forced ||= Boolean(v[ACCESS_KEYS.forced(d)]);
    held ||= Boolean(v[ACCESS_KEYS.heldOpen(d)]);
  }
  v[ACCESS_KEYS.anyForced] = forced;
  v[ACCESS_KEYS.anyHeldOpen] = held;
}

function stepRouter(v: Values, c: StepContext) {
  const hour = localHour(c.now, c.site.longitude);
  const day = hour >= 7 && hour < 21;
  const n = (spread: number) => (c.random() - 0.5) * 2 * spread;
  const wanKey = ROUTER_KEYS.up('wan');
  // the wired link fails about once a day for a few minutes; the cellular modem carries the site meanwhile
  if (v[wanKey] && c.random() < c.dt / 86_400) v[wanKey] = false;
  else if (!v[wanKey] && c.random() < c.dt / 300) v[wanKey] = true;
  const s1 = Math.round(clamp((v[ROUTER_KEYS.signal('cell1')] as number) * 0.8 + -72 * 0.2 + n(4), -113, -51));
  const s2 = Math.round(clamp((v[ROUTER_KEYS.signal('cell2')] as number) * 0.8 + -85 * 0.2 + n(5), -113, -51));
  v[ROUTER_KEYS.signal('cell1')] = s1;
  v[ROUTER_KEYS.signal('cell2')] = s2;
  v[ROUTER_KEYS.up('cell1')] = s1 > -110;
  const active = v[wanKey] ? 'wan' : v[ROUTER_KEYS.up('cell1')] ? 'cell1' : v[ROUTER_KEYS.up('cell2')] ? 'cell2' : 'none';
  v[ROUTER_KEYS.activeInterface] = active;
  const rx = Math.round(clamp((day ? 900 : 250) + n(200), 0, 10_000));
  const tx = Math.round(clamp((day ? 250 : 60) + n(60), 0, 10_000));
  v.rxKbps = rx;
  v.txKbps = tx;
  v.wanUp = Boolean(v[wanKey]);
  v.signalStrength = s1;
  const usage = (v[ROUTER_KEYS.dataUsageMb] as number) + ((rx + tx) * c.dt) / 8 / 1024;
  // the usage counter restarts on the first of the month
  v[ROUTER_KEYS.dataUsageMb] = round(new Date(c.now).getUTCDate() === 1 && hour < 0.1 ? 0 : usage, 1);
  v[ROUTER_KEYS.uptimeSeconds] = Math.round((v[ROUTER_KEYS.uptimeSeconds] as number) + c.dt);
}

function stepRtu(v: Values, c: StepContext) {
  const hour = localHour(c.now, c.site.longitude);
  const busy = hour >= 7 && hour < 20;
  v[RTU_KEYS.input(1)] = c.site.mainsOn; // mains present
  v[RTU_KEYS.input(2)] = busy ? c.random() < 0.2 : c.random() < 0.02; // door contact
  v[RTU_KEYS.input(3)] = false; // smoke
  v[RTU_KEYS.input(4)] = v[RTU_KEYS.input(4)] ? c.random() < 0.7 : c.random() < 0.001; // flood
  v[RTU_KEYS.input(5)] = !c.site.mainsOn; // genset running
  v[RTU_KEYS.input(6)] = false; // genset fault
  v[RTU_KEYS.input(7)] = !c.site.mainsOn && c.random() < 0.3; // battery low
  v[RTU_KEYS.input(8)] = busy ? c.random() < 0.4 : c.random() < 0.05; // motion
}

/** Advances a device of these kinds and returns what it reports now (null: another kind). */
export function deviceOpsStep(type: string, v: Values, c: StepContext): Values | null {
  if (type === 'ACCESSCONTROL') stepAccess(v, c);
  else if (type === 'ROUTER') stepRouter(v, c);
  else if (type === 'ETH') stepRtu(v, c);
  else return null;
  return withEvent(v);
}

/** The values to publish, with the oldest waiting access event. */
export function withEvent(v: Values): Values {
  const list = pending.get(v);
  const event = list?.shift();
  return event ? { ...v, [ACCESS_KEYS.event]: event } : { ...v };
}

/**
 * What a simulated device does with a command: open a door (reported as a remote opening), switch an RTU output,
 * or reboot a router (its uptime restarts). Returns the reply, or null when the device does not know the method.
 */
export function applyDeviceOpsCommand(type: string, v: Values, method: string, params: unknown): { ok: boolean; reply: unknown } | null {
  const p = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;
  if (type === 'ACCESSCONTROL' && method === DEVICE_OPS_METHODS.openDoor) {
    const door = Number(p.door ?? 1);
    if (!Number.isInteger(door) || v[ACCESS_KEYS.open(door)] === undefined) return { ok: false, reply: { error: 'no such door' } };
    v[ACCESS_KEYS.open(door)] = true;
    v.doorOpen = true;
    // reported with the state the device publishes right after answering; the next step clears it
    v[ACCESS_KEYS.event] = JSON.stringify({ door, kind: 'remote_open', credential: 'Remote' });
    return { ok: true, reply: { door, open: true } };
  }
  if (type === 'ETH' && method === DEVICE_OPS_METHODS.setOutput) {
    const output = Number(p.output);
    if (!Number.isInteger(output) || output < 1 || output > RTU_OUTPUTS) return { ok: false, reply: { error: 'no such output' } };
    v[RTU_KEYS.output(output)] = Boolean(p.on);
    return { ok: true, reply: { output, on: Boolean(p.on) } };
  }
  if (type === 'ROUTER' && method === DEVICE_OPS_METHODS.reboot) {
    v[ROUTER_KEYS.uptimeSeconds] = 0;
    return { ok: true, reply: { rebooting: true } };
  }
  return null;
}
