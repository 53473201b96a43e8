import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/**
 * Text for screen readers only: the name of a column of buttons, say, whose header shows nothing. It stays in the flow
 * (a 1 px box clipped to nothing, its margin taking the pixel back) instead of being positioned absolutely, which would
 * take it out of a table that scrolls sideways on a phone and widen the page.
 */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return (
    <Box
      component="span"
      sx={{
        display: 'inline-block',
        width: '1px',
        height: '1px',
        margin: '-1px',
        overflow: 'hidden',
        clipPath: 'inset(50%)',
        whiteSpace: 'nowrap',
        verticalAlign: 'top',
      }}
    >
      {children}
    </Box>
  );
}
