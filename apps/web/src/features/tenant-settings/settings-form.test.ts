import { DEFAULT_TREE_NAVIGATION, treeNavigationFor } from '@sitewatch/contracts/devices';
import { describe, expect, it } from 'vitest';
import { settingsPatch, treeNavigationIssues } from './settings-form.ts';

describe('tree navigation entries on the settings page', () => {
  it('accepts the defaults and reports problems by row and field with the server schema', () => {
    expect(treeNavigationIssues(DEFAULT_TREE_NAVIGATION.map((e) => ({ ...e })))).toEqual({});
    const issues = treeNavigationIssues([
      { nodeType: 'device', label: 'Ok', to: '/devices/{deviceId}/view' },
      { nodeType: 'asset', label: '', to: 'https://example.com' },
      { nodeType: 'asset', deviceType: 'DVR', label: 'Bad type', to: '/cctv/dashboard?assetId={assetId}' },
    ]);
    expect(issues['1.label']).toBe('Label is required');
    expect(issues['1.to']).toBe('Address must be a path in the app, starting with a single /');
    expect(issues['2.deviceType']).toBe('A site entry has no device type');
    expect(Object.keys(issues).some((k) => k.startsWith('0.'))).toBe(false);
  });

  it('sends trimmed entries, without a device type for site entries', () => {
    const base = {
      phone: '',
      email: '',
      assetAlias: 'Site',
      ticketAlias: 'Ticket',
      showSystemAlert: true,
      treeAccess: true,
      livePopup: true,
      mfaRequiredRoles: [],
    };
    const patch = settingsPatch({
      ...base,
      treeNavigation: [
        { nodeType: 'asset', deviceType: 'DVR', label: ' Record ', to: ' /assets/view/{assetId} ' },
        { nodeType: 'device', deviceType: 'UPS', label: 'UPS', to: '/ups/view/{assetId}/{deviceId}' },
      ],
    });
    expect(patch.treeNavigation).toEqual([
      { nodeType: 'asset', label: 'Record', to: '/assets/view/{assetId}' },
      { nodeType: 'device', deviceType: 'UPS', label: 'UPS', to: '/ups/view/{assetId}/{deviceId}' },
    ]);
  });
});

describe('the entries of a node', () => {
  const entries = [
    { nodeType: 'asset', label: 'Record', to: '/assets/view/{assetId}' },
    { nodeType: 'device', label: 'Any device', to: '/devices/{deviceId}/view?site={assetId}' },
    { nodeType: 'device', deviceType: 'GENERATOR', label: 'Genset', to: '/genset/view/{assetId}/{deviceId}' },
  ] as const;

  it('keeps the entries of the node type and device type, with the ids filled in', () => {
    expect(treeNavigationFor(entries, { nodeType: 'asset', assetId: 4 })).toEqual([{ label: 'Record', to: '/assets/view/4' }]);
    expect(treeNavigationFor(entries, { nodeType: 'device', deviceType: 'GENERATOR', assetId: 4, deviceId: 9 })).toEqual([
      { label: 'Any device', to: '/devices/9/view?site=4' },
      { label: 'Genset', to: '/genset/view/4/9' },
    ]);
    expect(treeNavigationFor(entries, { nodeType: 'device', deviceType: 'UPS', assetId: 4, deviceId: 9 })).toHaveLength(1);
    expect(treeNavigationFor(entries, { nodeType: 'level' })).toEqual([]);
  });

  it('keeps what the fixed constant offered by default', () => {
    expect(treeNavigationFor(DEFAULT_TREE_NAVIGATION, { nodeType: 'device', deviceType: 'ALARMPANEL', assetId: 2, deviceId: 5 })).toEqual([
      { label: 'Alarm Panel Dashboard', to: '/alarm-panel/view/5' },
    ]);
    expect(treeNavigationFor(DEFAULT_TREE_NAVIGATION, { nodeType: 'device', deviceType: 'DVR', assetId: 2, deviceId: 5 })).toEqual([
      { label: 'CCTV Dashboard', to: '/cctv/dashboard?assetId=2' },
    ]);
  });
});
