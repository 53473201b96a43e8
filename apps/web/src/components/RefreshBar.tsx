import LinearProgress from '@mui/material/LinearProgress';

/**
 * A thin bar along the top edge of a list (its parent is positioned) while the rows it shows refresh in the
 * background: drawn for the eye alone, and never in the way of a click on the rows under it.
 */
export function RefreshBar({ active }: { active: boolean }) {
  if (!active) return null;
  return (
    <LinearProgress
      aria-hidden
      data-testid="list-refreshing"
      sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 2, zIndex: 1, pointerEvents: 'none' }}
    />
  );
}
