import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { DEFAULT_TREE_NAVIGATION, treeNavigationFor } from '@sitewatch/contracts/devices';
import type { TreeNode } from '@sitewatch/contracts/sites';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { AlarmSettingsDialog, useAlarmDialogAvailable } from '../devices/AlarmSettingsDialog.tsx';
import { useAssetAlias } from '../sites/alias.ts';
import { useCustomerSettings } from '../tenant-settings/api.ts';

interface Entry {
  label: string;
  to?: string;
  onClick?: () => void;
}

/**
 * SPEC 2.13 right-click menu: for a site Edit {alias}, Add Device and Site Dashboard (the first two not in view
 * mode); for a parent device Edit Device; then the customer's navigation entries for the node and device type
 * (customer setting `treeNavigation`).
 */
export function TreeContextMenu({
  menu,
  onClose,
  viewMode,
}: {
  menu: { node: TreeNode; x: number; y: number } | null;
  onClose(): void;
  viewMode: boolean;
}) {
  const alias = useAssetAlias();
  const navigate = useNavigate();
  const perms = permissionsOf(useUser());
  const alarmAvailable = useAlarmDialogAvailable() && perms.has('edit_alarm_config');
  const [alarmFor, setAlarmFor] = useState<number | null>(null);
  const navigation = useCustomerSettings().data?.treeNavigation ?? DEFAULT_TREE_NAVIGATION;
  const node = menu?.node;
  const entries: Entry[] = [];
  if (node?.nodeType === 'asset' && node.assetId) {
    if (!viewMode && perms.has('change_asset')) entries.push({ label: `Edit ${alias}`, to: `/assets/edit/${node.assetId}` });
    if (!viewMode && perms.has('add_device')) entries.push({ label: 'Add Device', to: `/device/create?assetId=${node.assetId}` });
    entries.push({ label: 'Site Dashboard', to: `/sitemonitoring?assetId=${node.assetId}` });
    entries.push(...treeNavigationFor(navigation, node));
  }
  if (node?.nodeType === 'device' && node.deviceId) {
    const deviceId = node.deviceId;
    if (node.isParent && !viewMode && perms.has('change_device')) entries.push({ label: 'Edit Device', to: `/devices/${deviceId}/edit` });
    entries.push(...treeNavigationFor(navigation, node));
    entries.push({ label: 'View Device', to: `/devices/${deviceId}/view` });
    if (alarmAvailable) entries.push({ label: 'Device Alarm Settings', onClick: () => setAlarmFor(deviceId) });
  }
  return (
    <>
      <Menu
        open={Boolean(menu) && entries.length > 0}
        onClose={onClose}
        anchorReference="anchorPosition"
        anchorPosition={menu ? { top: menu.y, left: menu.x } : undefined}
        data-testid="tree-context-menu"
      >
        {entries.map((e) => (
          <MenuItem
            key={`${e.label} ${e.to ?? ''}`}
            onClick={() => {
              onClose();
              if (e.to) navigate(e.to);
              e.onClick?.();
            }}
          >
            {e.label}
          </MenuItem>
        ))}
      </Menu>
      {alarmFor !== null ? <AlarmSettingsDialog deviceId={alarmFor} open onClose={() => setAlarmFor(null)} /> : null}
    </>
  );
}
