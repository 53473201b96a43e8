/** Query keys of the tenant's own settings, logo, version and system alerts. */
export const tenantSettingsKeys = {
  logo: ['customer', 'logo'] as const,
  current: ['customer', 'current'] as const,
  settings: ['customer', 'settings'] as const,
  version: ['customer', 'version'] as const,
  alerts: ['notification', 'system-alerts'] as const,
};
