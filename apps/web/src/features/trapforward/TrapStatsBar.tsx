import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTrapStats } from './api.ts';

const ITEMS = [
  ['received', 'Received'],
  ['matched', 'Matched'],
  ['unmatched', 'Unmatched'],
  ['alarms', 'Alarms'],
  ['forwarded', 'Forwarded'],
  ['deduped', 'Deduplicated'],
  ['rateLimited', 'Rate limited'],
] as const;

/** Seen by system administrators: traps no tenant took. */
const INSTALL_ITEMS = [
  ['refused', 'Refused (install)'],
  ['unknownSource', 'Unknown source (install)'],
] as const;

/** The receiver's counters for the tenant (storm control's drops included). */
export function TrapStatsBar() {
  const stats = useTrapStats();
  if (!stats.data) return null;
  const s = stats.data;
  return (
    <Paper
      variant="outlined"
      sx={{ p: 1.5, mb: 2, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(96px, 1fr))', gap: 1 }}
      data-testid="trap-stats"
    >
      {ITEMS.map(([key, label]) => (
        <Box key={key}>
          <Typography variant="caption" color="text.secondary">
            {label}
          </Typography>
          <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }} data-testid={`stat-${key}`}>
            {s[key].toLocaleString()}
          </Typography>
        </Box>
      ))}
      {s.install
        ? INSTALL_ITEMS.map(([key, label]) => (
            <Box key={key}>
              <Typography variant="caption" color="text.secondary">
                {label}
              </Typography>
              <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }} data-testid={`stat-install-${key}`}>
                {(s.install as NonNullable<typeof s.install>)[key].toLocaleString()}
              </Typography>
            </Box>
          ))
        : null}
    </Paper>
  );
}
