import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { SiteNamed } from '../../components/SiteNamed.tsx';
import { PAGE_SIZE, useUnmatched } from './api.ts';

/** Traps that no mapping took (a known device) or no device claimed (an unknown source), counted per OID. */
export function UnmatchedPanel() {
  const [page, setPage] = useState(1);
  const [reason, setReason] = useState<'' | 'no-mapping' | 'unknown-source'>('');
  const [searchText, setSearchText] = useState('');
  const search = useDeferredValue(searchText.trim());
  const list = useUnmatched(page, reason, search);
  const total = list.data?.totalCount ?? 0;
  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 1.5 }}>
        <TextField
          select
          size="small"
          label="Reason"
          value={reason}
          onChange={(e) => {
            setReason(e.target.value as typeof reason);
            setPage(1);
          }}
          sx={{ minWidth: 220, flex: { xs: 1, sm: 'none' } }}
        >
          <MenuItem value="">Known devices</MenuItem>
          <MenuItem value="no-mapping">No mapping</MenuItem>
          <MenuItem value="unknown-source">Unknown source (system administrators)</MenuItem>
        </TextField>
        <TextField
          size="small"
          label="Search devices, sites or OIDs"
          value={searchText}
          onChange={(e) => {
            setSearchText(e.target.value);
            setPage(1);
          }}
          sx={{ width: { xs: '100%', sm: 280 } }}
          slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'unmatched-search' } }}
        />
      </Box>
      {list.isError ? (
        <ErrorState onRetry={() => list.refetch()} />
      ) : list.data && total === 0 ? (
        search ? (
          <EmptyState compact title="No unmatched traps match this search" description="Try a device label, a site name or an OID." />
        ) : (
          <EmptyState compact title="No unmatched traps" description="Every trap received matched a device and a mapping." />
        )
      ) : (
        <Stack spacing={1} data-testid="unmatched-list">
          {(list.data?.contents ?? []).map((u) => (
            <Paper key={u.id} variant="outlined" sx={{ p: 1.5 }} data-testid="unmatched-trap">
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography sx={{ fontWeight: 600, flex: 1, minWidth: 160, overflowWrap: 'anywhere' }}>{u.trapOid}</Typography>
                <Chip size="small" label={u.reason === 'no-mapping' ? 'No mapping' : 'Unknown source'} />
                <Chip size="small" label={`${u.count.toLocaleString()}×`} variant="outlined" />
              </Box>
              <Typography variant="body2" color="text.secondary">
                {u.version} from {u.source}
                {u.deviceId ? (
                  <>
                    {' · '}
                    <Link to={`/devices/${u.deviceId}/view`}>
                      {u.deviceLabel ? <SiteNamed label={u.deviceLabel} site={u.deviceSiteName} /> : `device ${u.deviceId}`}
                    </Link>
                  </>
                ) : null}
                {' · last '}
                {new Date(u.lastSeen).toLocaleString()}
              </Typography>
              {u.varbinds.length > 0 ? (
                <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2 }}>
                  {u.varbinds.slice(0, 8).map((vb) => (
                    <Typography
                      key={vb.oid}
                      component="li"
                      variant="caption"
                      sx={{ display: 'list-item', overflowWrap: 'anywhere', fontFamily: 'monospace' }}
                    >
                      {vb.oid} = {vb.value} ({vb.type})
                    </Typography>
                  ))}
                </Box>
              ) : null}
            </Paper>
          ))}
        </Stack>
      )}
      {total > PAGE_SIZE ? (
        <Pagination sx={{ mt: 2 }} count={Math.ceil(total / PAGE_SIZE)} page={page} onChange={(_e, p) => setPage(p)} />
      ) : null}
    </Box>
  );
}
