/**
 * Plausible device physics for the live demo. Each site has mains power that fails now and then; gensets start on
 * a mains failure and burn fuel, UPS units run on battery and recharge, rectifiers fall back to their batteries,
 * meters count kWh, alarm panels arm outside business hours and zones trip, DVR disks wear and cameras lose video,
 * and some sites' routers drop off the network at night. Pure functions of the state, the time and a random source.
 */

import { deviceOpsInitial, deviceOpsStep } from './device-ops.ts';

export type Values = Record<string, number | boolean | string>;

/** A genset held running (true) or stopped (false) by a command; absent: it follows the mains. */
const gensetHold = new WeakMap<Values, boolean>();
const gensetHeld = (v: Values): boolean | undefined => gensetHold.get(v);
/** A command holds a genset running or stopped (undefined: back to automatic, following the mains). */
export function holdGenset(v: Values, running: boolean | undefined): void {
  if (running === undefined) gensetHold.delete(v);
  else gensetHold.set(v, running);
}

export interface SiteSim {
  key: string;
  longitude: number;
  mainsOn: boolean;
  outageUntil: number;
  /** This site's link goes down at night (1:00–5:00 local time). */
  nightDrops: boolean;
}

export interface DeviceSim {
  id: number;
  type: string;
  site: SiteSim;
  values: Values;
  /** A unit with a worn part (a failing disk, a weak battery). */
  weak: boolean;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
const toward = (v: number, target: number, rate: number, dt: number) => v + (target - v) * Math.min(1, rate * dt);

/** Local solar hour of a site from its longitude (good enough for day and night). */
export const localHour = (now: number, longitude: number) => (((now / 3_600_000 + longitude / 15) % 24) + 24) % 24;

/** The site's link is down: routers at some sites go offline at night, taking the site's devices with them. */
export const siteOffline = (site: SiteSim, now: number) =>
  site.nightDrops && localHour(now, site.longitude) >= 1 && localHour(now, site.longitude) < 5;

/** Mains failures: on average one every six hours, lasting 10 to 90 minutes. */
export function stepSite(site: SiteSim, now: number, dtSeconds: number, random: () => number) {
  if (site.mainsOn && random() < dtSeconds / (6 * 3600)) {
    site.mainsOn = false;
    site.outageUntil = now + (10 + random() * 80) * 60_000;
  } else if (!site.mainsOn && now >= site.outageUntil) site.mainsOn = true;
}

export function initialValues(type: string, id: number, random: () => number): Values {
  switch (type) {
    case 'GENERATOR':
      return {
        fuelLevel: round(40 + random() * 55, 1),
        runHours: round(200 + (id % 97) * 13.7, 1),
        batteryVoltage: 12.7,
        running: false,
        outputVoltage: 0,
        loadKw: 0,
        engineTemp: 30,
      };
    case 'UPS':
      return { onBattery: false, batteryCharge: 100, inputVoltage: 230, outputVoltage: 230, loadPercent: 40, runtimeMinutes: 30 };
    case 'RECTIFIER':
      return { acInputVoltage: 230, outputVoltage: 53.5, outputCurrent: 28, batteryVoltage: 53.5, temperature: 32 };
    case 'METER':
      return { energyKwh: round(10_000 + (id % 101) * 371.3, 1), powerKw: 8, voltage: 230, current: 35, frequency: 50 };
    case 'ALARMPANEL':
      return { armed: false, alarm: false, zone1: false, zone2: false, zone3: false, zone4: false, batteryVoltage: 13.4, tamper: false };
    case 'DVR':
      return {
        hddHealth: round(88 + random() * 12, 1),
        hddStatus: 'OK',
        recording: true,
        videoLoss: 0,
        storageUsedPercent: round(random() * 100, 1),
      };
    case 'HDD':
      return { health: round(88 + random() * 12, 1), temperature: 38, status: 'OK' };
    case 'CAMERA':
      return { videoLoss: false, bitrateKbps: 1800 };
    case 'ROUTER':
    case 'ETH':
    case 'ACCESSCONTROL':
      return deviceOpsInitial(type, id, random) as Values;
    default:
      return { temperature: 28, humidity: 55, doorOpen: false, relayOn: false };
  }
}

/** Advances one device by dtSeconds and returns the values it reports now. */
export function stepDevice(device: DeviceSim, now: number, dtSeconds: number, random: () => number): Values {
  const v = device.values;
  const site = device.site;
  const hour = localHour(now, site.longitude);
  const day = hour >= 7 && hour < 21;
  const n = (spread: number) => (random() - 0.5) * 2 * spread;
  switch (device.type) {
    case 'GENERATOR': {
      // a genset started or stopped by a command stays so until it is set back to automatic
      const running = (gensetHeld(v) ?? !site.mainsOn) && (v.fuelLevel as number) > 2;
      v.running = running;
      let fuel = v.fuelLevel as number;
      if (running) fuel -= (12.5 / 3600) * dtSeconds; // a full tank lasts about 8 hours at load
      if (fuel < 12 && random() < dtSeconds / 7200) fuel = 92 + random() * 6; // the tanker comes
      v.fuelLevel = round(clamp(fuel, 0, 100), 1);
      v.runHours = round((v.runHours as number) + (running ? dtSeconds / 3600 : 0), 2);
      v.batteryVoltage = round(
        running ? 13.7 + n(0.1) : toward(v.batteryVoltage as number, device.weak ? 11.9 : 12.6, 0.0005, dtSeconds) + n(0.02),
      );
      v.outputVoltage = running ? round(230 + n(3), 1) : 0;
      v.loadKw = running ? round(10 + n(4), 1) : 0;
      v.engineTemp = round(toward(v.engineTemp as number, running ? 85 : 30, 0.002, dtSeconds) + n(0.5), 1);
      return { ...v };
    }
    case 'UPS': {
      const onBattery = !site.mainsOn;
      let charge = v.batteryCharge as number;
      charge += onBattery ? -(100 / (device.weak ? 900 : 1800)) * dtSeconds : (100 / (4 * 3600)) * dtSeconds;
      v.batteryCharge = round(clamp(charge, 0, 100), 1);
      v.onBattery = onBattery;
      v.inputVoltage = onBattery ? 0 : round(230 + n(5), 1);
      v.outputVoltage = onBattery && charge <= 0 ? 0 : round(230 + n(1), 1);
      v.loadPercent = round(clamp(45 + n(10), 0, 100), 1);
      v.runtimeMinutes = round(((v.batteryCharge as number) / 100) * (device.weak ? 15 : 30), 1);
      return { ...v };
    }
    case 'RECTIFIER': {
      const ac = site.mainsOn;
      v.acInputVoltage = ac ? round(230 + n(5), 1) : 0;
      const battery = ac
        ? toward(v.batteryVoltage as number, 53.5, 0.01, dtSeconds)
        : (v.batteryVoltage as number) - (device.weak ? 0.004 : 0.0015) * dtSeconds;
      v.batteryVoltage = round(clamp(battery, 42, 54.5));
      v.outputVoltage = ac ? round(53.5 + n(0.1)) : v.batteryVoltage;
      v.outputCurrent = round(28 + n(6), 1);
      v.temperature = round(toward(v.temperature as number, day ? 36 : 29, 0.001, dtSeconds) + n(0.3), 1);
      return { ...v };
    }
    case 'METER': {
      const power = clamp((day ? 14 : 5) + n(3), 0.5, 40);
      v.powerKw = round(power);
      v.energyKwh = round((v.energyKwh as number) + (power * dtSeconds) / 3600, 2);
      v.voltage = round(site.mainsOn ? 230 + n(4) : 230 + n(2), 1);
      v.current = round((power * 1000) / (v.voltage as number), 1);
      v.frequency = round(50 + n(0.05), 2);
      return { ...v };
    }
    case 'ALARMPANEL': {
      const armed = !day;
      v.armed = armed;
      for (const zone of ['zone1', 'zone2', 'zone3', 'zone4']) {
        if (v[zone])
          v[zone] = random() < 0.5; // a tripped zone resets after a while
        else v[zone] = random() < (armed ? 0.004 : 0.001) * (dtSeconds / 30);
      }
      v.alarm = armed && ['zone1', 'zone2', 'zone3', 'zone4'].some((z) => v[z] === true);
      v.batteryVoltage = round(13.4 + n(0.1));
      v.tamper = random() < 0.0005;
      return { ...v };
    }
    case 'DVR': {
      const health = clamp((v.hddHealth as number) - (device.weak ? 0.0008 : 0.00002) * dtSeconds, 0, 100);
      v.hddHealth = round(health, 2);
      v.hddStatus = health < 40 ? 'FAIL' : health < 70 ? 'WARNING' : 'OK';
      v.recording = v.hddStatus !== 'FAIL';
      v.videoLoss = random() < 0.05 ? 1 + Math.floor(random() * 2) : 0;
      let used = (v.storageUsedPercent as number) + 0.0005 * dtSeconds;
      if (used > 99) used = 80; // the oldest recordings are overwritten
      v.storageUsedPercent = round(used, 1);
      return { ...v };
    }
    case 'HDD': {
      const health = clamp((v.health as number) - (device.weak ? 0.0008 : 0.00002) * dtSeconds, 0, 100);
      v.health = round(health, 2);
      v.status = health < 40 ? 'FAIL' : health < 70 ? 'WARNING' : 'OK';
      v.temperature = round(toward(v.temperature as number, day ? 42 : 37, 0.002, dtSeconds) + n(0.3), 1);
      return { ...v };
    }
    case 'CAMERA': {
      v.videoLoss = v.videoLoss ? random() < 0.6 : random() < 0.01;
      v.bitrateKbps = v.videoLoss ? 0 : Math.round(1800 + n(300));
      return { ...v };
    }
    case 'ROUTER':
    case 'ETH':
    case 'ACCESSCONTROL':
      return deviceOpsStep(device.type, v, { id: device.id, site, now, dt: dtSeconds, random }) as Values;
    default: {
      v.temperature = round(toward(v.temperature as number, day ? 31 : 25, 0.002, dtSeconds) + n(0.3), 1);
      v.humidity = round(clamp((v.humidity as number) + n(1), 20, 95), 1);
      v.doorOpen = day ? random() < 0.1 : random() < 0.01;
      v.relayOn = v.relayOn ? random() < 0.9 : random() < 0.05;
      return { ...v };
    }
  }
}
