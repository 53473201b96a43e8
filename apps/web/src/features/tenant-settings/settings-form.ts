import { DEFAULT_TREE_NAVIGATION, type TreeNavigationEntry, treeNavigationSchema } from '@sitewatch/contracts/devices';
import type { Role } from '@sitewatch/contracts/roles';
import type { CustomerSettings } from '@sitewatch/contracts/tenant-settings';

/** The part of the customer settings the Settings page edits. */
export interface EditableSettings {
  phone: string;
  email: string;
  assetAlias: string;
  ticketAlias: string;
  showSystemAlert: boolean;
  treeAccess: boolean;
  livePopup: boolean;
  mfaRequiredRoles: Role[];
  treeNavigation: TreeNavigationEntry[];
  /** Attendance: how far from a site a check-in is accepted, in metres (as typed). */
  geofenceMeters?: string;
  /** Attendance: a check-in needs a camera snapshot of the site. */
  snapshotRequired?: boolean;
}

export function editableOf(s: CustomerSettings): EditableSettings {
  return {
    phone: s.helpline?.phone ?? '',
    email: s.helpline?.email ?? '',
    assetAlias: s.aliases?.asset ?? '',
    ticketAlias: s.aliases?.ticket ?? '',
    showSystemAlert: s.showSystemAlert,
    treeAccess: s.treeAccess,
    livePopup: s.livePopup,
    mfaRequiredRoles: [...(s.mfaRequiredRoles ?? [])],
    treeNavigation: (s.treeNavigation ?? DEFAULT_TREE_NAVIGATION).map((e) => ({ ...e })),
    geofenceMeters: String(s.attendanceGeofenceMeters ?? 200),
    snapshotRequired: s.attendanceSnapshotRequired ?? false,
  };
}

/** The PUT body: only the keys this page owns (the server merges a partial update). */
export function settingsPatch(v: EditableSettings): Partial<CustomerSettings> {
  const helpline: { phone?: string; email?: string } = {};
  if (v.phone.trim()) helpline.phone = v.phone.trim();
  if (v.email.trim()) helpline.email = v.email.trim();
  return {
    helpline,
    aliases: { asset: v.assetAlias.trim(), ticket: v.ticketAlias.trim() },
    showSystemAlert: v.showSystemAlert,
    treeAccess: v.treeAccess,
    livePopup: v.livePopup,
    mfaRequiredRoles: v.mfaRequiredRoles,
    ...(v.geofenceMeters !== undefined ? { attendanceGeofenceMeters: Number(v.geofenceMeters) } : {}),
    ...(v.snapshotRequired !== undefined ? { attendanceSnapshotRequired: v.snapshotRequired } : {}),
    treeNavigation: v.treeNavigation.map(({ deviceType, ...e }) => ({
      ...e,
      label: e.label.trim(),
      to: e.to.trim(),
      ...(e.nodeType === 'device' && deviceType ? { deviceType } : {}),
    })),
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^[+\d][\d\s().-]{2,29}$/;

export function validateSettings(v: EditableSettings, t: (key: string, options?: Record<string, unknown>) => string) {
  const errors: Partial<Record<'phone' | 'email' | 'assetAlias' | 'ticketAlias' | 'geofence', string>> = {};
  if (v.phone.trim() && !PHONE.test(v.phone.trim())) errors.phone = t('settings.invalidPhone');
  if (v.email.trim() && !EMAIL.test(v.email.trim())) errors.email = t('settings.invalidEmail');
  if (!v.assetAlias.trim()) errors.assetAlias = t('settings.required');
  if (!v.ticketAlias.trim()) errors.ticketAlias = t('settings.required');
  if (v.geofenceMeters !== undefined) {
    const metres = Number(v.geofenceMeters);
    if (!/^\d+$/.test(v.geofenceMeters.trim()) || metres < 10 || metres > 10_000)
      errors.geofence = 'Enter a whole number of metres between 10 and 10000';
  }
  return errors;
}

/** Problems of the tree navigation entries, by row and field, from the schema the server validates with. */
export function treeNavigationIssues(entries: TreeNavigationEntry[]): Record<string, string> {
  const result = treeNavigationSchema.safeParse(entries);
  const issues: Record<string, string> = {};
  if (result.success) return issues;
  for (const issue of result.error.issues) {
    const [row, field] = issue.path;
    const key = row === undefined ? 'list' : `${String(row)}.${String(field ?? 'label')}`;
    issues[key] ??= issue.message;
  }
  return issues;
}
