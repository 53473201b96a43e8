import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ElementType, ReactNode, Ref } from 'react';

/**
 * Content that scrolls inside its box (a wide table on a narrow screen, rows that outgrow a widget, a log) and may
 * hold nothing a keyboard can reach: the box itself is one Tab stop, a named region, so that a keyboard user can
 * scroll it with the arrow keys (WCAG 2.1.1). `overflow` says which way it scrolls.
 */
export function ScrollRegion({
  label,
  overflow = 'x',
  component = 'div',
  sx,
  children,
  ...rest
}: {
  label: string;
  overflow?: 'x' | 'y' | 'both';
  component?: ElementType;
  sx?: SxProps<Theme>;
  children: ReactNode;
  'data-testid'?: string;
  /** For a `component` of MUI's that takes a variant (a Paper). */
  variant?: string;
  ref?: Ref<HTMLElement>;
}) {
  const scroll = overflow === 'x' ? { overflowX: 'auto' } : overflow === 'y' ? { overflowY: 'auto' } : { overflow: 'auto' };
  return (
    <Box
      component={component}
      role="region"
      aria-label={label}
      tabIndex={0}
      {...rest}
      sx={[
        scroll,
        { '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 } },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {children}
    </Box>
  );
}
