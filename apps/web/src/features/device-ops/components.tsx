import Chip from '@mui/material/Chip';
import { COMMAND_STATE_LABELS, type CommandState } from '@sitewatch/contracts/commands';

const COLOURS: Record<CommandState, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  sent: 'info',
  delivered: 'info',
  successful: 'success',
  timeout: 'warning',
  failed: 'error',
  expired: 'warning',
};

/** Where a command sent from a screen stands (queued, sent, … successful). */
export function CommandStateChip({ state }: { state: CommandState | undefined }) {
  if (!state) return null;
  return <Chip size="small" variant="outlined" color={COLOURS[state]} label={COMMAND_STATE_LABELS[state]} data-testid="command-state" />;
}

/** Seconds as "3 d 4 h", "5 h 12 min" or "40 min". */
export function formatUptime(seconds: number | null): string {
  if (seconds === null) return '—';
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  return `${m} min`;
}

/** Megabytes as MB or GB. */
export const formatUsage = (mb: number | null) => (mb === null ? '—' : mb >= 1024 ? `${(mb / 1024).toFixed(2)} GB` : `${mb.toFixed(1)} MB`);
