import { markerSize } from '@sitewatch/contracts/sites';
import { describe, expect, it } from 'vitest';
import { groupByFirstLevel, groupColour, rankColour, sitesBounds, statusColour, statusRank } from './map-model.ts';

const site = (id: number, level1: string, lat: number, lng: number, status: string | null) => ({
  id,
  name: `S${id}`,
  latitude: lat,
  longitude: lng,
  level1,
  status,
  alarmStatus: null,
});

describe('map model', () => {
  it('groups sites by their first address level at their middle', () => {
    const groups = groupByFirstLevel([
      site(1, 'India', 10, 70, 'Online'),
      site(2, 'India', 20, 80, 'Offline'),
      site(3, 'Kenya', -1, 36, 'Online'),
    ]);
    expect(groups).toEqual([
      { level1: 'India', latitude: 15, longitude: 75, count: 2, online: 1, offline: 1, sites: [1, 2] },
      { level1: 'Kenya', latitude: -1, longitude: 36, count: 1, online: 1, offline: 0, sites: [3] },
    ]);
    expect(groupColour(groups[0] as never)).toBe(statusColour('Offline'));
    expect(groupColour(groups[1] as never)).toBe(statusColour('Online'));
  });
  it('sizes markers by zoom within the limits of SPEC 2.12', () => {
    expect(markerSize(2)).toEqual({ width: 29, height: 34 });
    expect(markerSize(13)).toEqual({ width: 40, height: 45 });
    expect(markerSize(18)).toEqual({ width: 40, height: 50 });
  });
});

describe('cluster colour and first view', () => {
  it('colours a cluster by the worst status inside', () => {
    const worst = (statuses: (string | null)[]) => rankColour(Math.max(...statuses.map(statusRank)));
    expect(worst(['Online', 'Online'])).toBe(statusColour('Online'));
    expect(worst(['Online', 'Offline', null])).toBe(statusColour('Offline'));
    expect(worst(['Online', null])).toBe(statusColour(null));
  });

  it('bounds every site for the first view', () => {
    expect(
      sitesBounds([
        { latitude: 6.4, longitude: 3.4 },
        { latitude: 51.5, longitude: -0.1 },
        { latitude: -33.9, longitude: 18.4 },
      ]),
    ).toEqual([
      [-33.9, -0.1],
      [51.5, 18.4],
    ]);
    expect(sitesBounds([])).toBeNull();
  });
});
