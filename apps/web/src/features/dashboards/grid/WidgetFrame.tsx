import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import DragIndicator from '@mui/icons-material/DragIndicator';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A widget's card: its title (the drag handle while editing), configure and remove buttons, and its content. */
export function WidgetFrame({
  id,
  title,
  editing,
  onConfigure,
  onRemove,
  children,
}: {
  id: string;
  title: string;
  editing: boolean;
  onConfigure?: () => void;
  onRemove?: () => void;
  children: ReactNode;
}) {
  return (
    <Paper
      variant="outlined"
      data-testid={`widget-${id}`}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden', bgcolor: 'background.paper' }}
    >
      <Box
        className={editing ? 'widget-drag' : undefined}
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          px: 1,
          minHeight: 34,
          borderBottom: 1,
          borderColor: 'divider',
          cursor: editing ? 'move' : 'default',
        }}
      >
        {editing ? <DragIndicator fontSize="small" sx={{ color: 'text.secondary' }} aria-hidden /> : null}
        <Typography variant="subtitle2" noWrap sx={{ flex: 1 }} component="h2">
          {title}
        </Typography>
        {editing && onConfigure ? (
          <Tooltip title="Configure">
            <IconButton size="small" aria-label={`Configure ${title}`} onClick={onConfigure} data-testid={`widget-configure-${id}`}>
              <SettingsOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null}
        {editing && onRemove ? (
          <Tooltip title="Remove">
            <IconButton size="small" aria-label={`Remove ${title}`} onClick={onRemove} data-testid={`widget-remove-${id}`}>
              <DeleteOutline fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null}
      </Box>
      <Box sx={{ flex: 1, minHeight: 0, p: 1, overflow: 'hidden' }}>{children}</Box>
    </Paper>
  );
}
