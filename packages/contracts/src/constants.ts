/** Business constants of the specification (section 9) shared by server and web. */
export const TOAST_DURATION_MS = { success: 3000, error: 5000 } as const;
export const SYSTEM_ALERTS_POLL_MS = 20_000;
export const SYSTEM_ALERTS_ROTATE_MS = 5_000;
export const SIDE_NAV_WIDTH_PX = 250;
export const TREE_PANE_WIDTH = { default: 400, min: 300, max: 900 } as const;
export const RESIZE_DEBOUNCE_MS = 20;
export const ACCESS_TOKEN_REREAD_MS = 1000;
export const BADGE_MAX = 99;

/** Storage keys that survive a logout. */
export const STORAGE_KEYS = {
  cookieConsent: 'cookie-consent',
  loginRole: 'x-log-role',
  fabState: 'fab-state',
  theme: 'config-theme',
} as const;
export const KEPT_ACROSS_LOGOUT: readonly string[] = Object.values(STORAGE_KEYS);

export const DEFAULT_LOGIN_ROLE = 'auth';
export const DEFAULT_ALIASES = { ticket: 'Ticket', asset: 'Site' } as const;
export const MOBILE_NUMBER_LENGTH = 10;
export const USER_INACTIVITY_THRESHOLD = 30;
export const BYTE_UNITS = ['Bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB'] as const;

export const TICKET_DEFAULTS = {
  refreshIntervalSec: 10,
  minRefreshIntervalSec: 5,
  initialDateFilter: 'last24h',
  requireAttachmentForReview: true,
  newTicketStatus: 'OPEN',
  priority: 'MINOR',
  type: 'TICKET',
} as const;

export const STATUS_COLOURS: Record<string, string> = {
  OPEN: '#ff8a00',
  INPROGRESS: '#00b7c2',
  RESOLVED: '#9a55f2',
  CLOSED: '#4bc177',
};
export const DEFAULT_PRIORITY_COLOUR = '#808080';
