import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  /** An image under /images; the default is a neutral empty box. */
  image?: string;
  compact?: boolean;
  'data-testid'?: string;
}

/** What a list or page shows when it has nothing: never a blank area. */
export function EmptyState({ title, description, action, image = '/images/empty.svg', compact, ...rest }: EmptyStateProps) {
  return (
    <Box
      role="status"
      data-testid={rest['data-testid'] ?? 'empty-state'}
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 1, py: compact ? 3 : 6, px: 2 }}
    >
      <Box component="img" src={image} alt="" sx={{ width: compact ? 72 : 120, height: 'auto', opacity: 0.9 }} />
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {description ? (
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 480 }}>
          {description}
        </Typography>
      ) : null}
      {action ? <Box sx={{ mt: 1 }}>{action}</Box> : null}
    </Box>
  );
}
