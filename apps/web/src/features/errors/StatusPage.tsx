import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** The shared look of the 404, 403 and 421 pages. */
export function StatusPage({
  code,
  title,
  text,
  actions,
  testId,
}: {
  code: string;
  title: string;
  text: string;
  actions?: ReactNode;
  testId: string;
}) {
  return (
    <Box data-testid={testId} sx={{ maxWidth: 560, mx: 'auto', textAlign: 'center', py: { xs: 4, md: 8 }, px: 2 }}>
      <Typography aria-hidden sx={{ fontSize: '4.5rem', fontWeight: 800, lineHeight: 1, color: 'primary.main', opacity: 0.85 }}>
        {code}
      </Typography>
      <Typography variant="h1" component="h1" sx={{ mt: 2, mb: 1 }}>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {text}
      </Typography>
      {actions ? <Box sx={{ display: 'flex', gap: 1, justifyContent: 'center', flexWrap: 'wrap' }}>{actions}</Box> : null}
    </Box>
  );
}
