import AddOutlined from '@mui/icons-material/AddOutlined';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useExportSources, useStartExport } from './api.ts';

/** Starts any export the user may run (users, sign-in log, tickets, sites ...) as a background job. */
export function ExportMenu() {
  const sources = useExportSources();
  const start = useStartExport();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const list = sources.data ?? [];
  if (list.length === 0) return null;
  return (
    <>
      <Button
        variant="contained"
        startIcon={<AddOutlined />}
        onClick={(e) => setAnchor(e.currentTarget)}
        disabled={start.isPending}
        aria-haspopup="menu"
        data-testid="export-new"
      >
        New export
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {list.map((source) => (
          <MenuItem
            key={source.kind}
            onClick={() => {
              setAnchor(null);
              start.mutate({ kind: source.kind });
            }}
            data-testid={`export-source-${source.kind}`}
          >
            {source.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
