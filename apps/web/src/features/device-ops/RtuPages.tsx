import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { COMMAND_PERMISSION } from '@sitewatch/contracts/commands';
import { DEVICE_OPS_MESSAGES, DEVICE_OPS_METHODS, type IoPoint, RTU_KEYS, type Rtu } from '@sitewatch/contracts/device-ops';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { loadState } from '../../components/LoadState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { StatusChip } from '../devices/components.tsx';
import { useDebounced } from '../sites/hooks.ts';
import { type Option, SitePicker } from '../sites/Pickers.tsx';
import { asBool, type LiveValues, useDeviceCommand, useLiveValues, useRtuSite, useRtus } from './api.ts';
import { CommandStateChip } from './components.tsx';

const live = (points: IoPoint[], values: Record<string, unknown> | undefined, key: (n: number) => string) =>
  points.map((p) => ({ ...p, on: asBool(values?.[key(p.no)] as never, p.on) }));

interface Switching {
  rtu: Rtu;
  output: IoPoint;
  on: boolean;
}

/** The RTU cards of a list: inputs as lamps, outputs as switches sent as commands after a confirmation. */
function RtuCards({ rtus, showSite }: { rtus: Rtu[]; showSite: boolean }) {
  const permissions = permissionsOf(useUser());
  const canCommand = permissions.has(COMMAND_PERMISSION);
  const values: LiveValues = useLiveValues(rtus.map((r) => r.deviceId));
  const { send, stateOf } = useDeviceCommand();
  const [asking, setAsking] = useState<Switching | null>(null);
  const [sent, setSent] = useState<Record<string, number>>({});
  const switchOutput = ({ rtu, output, on }: Switching) =>
    send.mutate(
      { deviceId: rtu.deviceId, method: DEVICE_OPS_METHODS.setOutput, params: { output: output.no, on } },
      {
        onSuccess: (command) => {
          setSent((s) => ({ ...s, [`${rtu.deviceId}:${output.no}`]: command.id }));
          toast.success(command.state === 'queued' ? 'Command queued until the device connects' : 'Command sent');
          setAsking(null);
        },
        onError: (error) => {
          toast.error(isHttpError(error) ? (detailOf(error.data) ?? 'Command not sent') : 'Command not sent');
          setAsking(null);
        },
      },
    );
  return (
    <>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))' }} data-testid="rtu-list">
        {rtus.map((rtu) => {
          const inputs = live(rtu.inputs, values[rtu.deviceId], RTU_KEYS.input);
          const outputs = live(rtu.outputs, values[rtu.deviceId], RTU_KEYS.output);
          return (
            <Card key={rtu.deviceId} variant="outlined" data-testid="rtu-card">
              <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                  <Typography sx={{ fontWeight: 600, flex: 1 }}>{rtu.deviceLabel}</Typography>
                  <StatusChip status={rtu.status} />
                </Box>
                {showSite ? (
                  <Typography variant="body2">
                    {rtu.assetId ? (
                      <Link to={`/eth-single-site/view/${rtu.assetId}`} data-testid="rtu-site-link">
                        {rtu.siteName}
                      </Link>
                    ) : (
                      'No site'
                    )}
                  </Typography>
                ) : null}
                <Typography variant="subtitle2">Inputs</Typography>
                <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                  {inputs.map((i) => (
                    <Chip
                      key={i.no}
                      size="small"
                      label={i.name}
                      color={i.on ? 'success' : 'default'}
                      variant={i.on ? 'filled' : 'outlined'}
                      title={i.on === null ? 'No state' : i.on ? 'On' : 'Off'}
                      data-testid="rtu-input"
                      data-on={String(i.on)}
                    />
                  ))}
                </Box>
                <Typography variant="subtitle2">Outputs</Typography>
                <Box sx={{ display: 'flex', flexDirection: 'column' }}>
                  {outputs.map((o) => (
                    <Box key={o.no} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                      <FormControlLabel
                        sx={{ flex: 1, mr: 0 }}
                        control={
                          <Switch
                            checked={Boolean(o.on)}
                            disabled={!canCommand || rtu.status === 'Not yet connected'}
                            onChange={(e) => setAsking({ rtu, output: o, on: e.target.checked })}
                            slotProps={{ input: { 'aria-label': `${o.name} of ${rtu.deviceLabel}` } }}
                            data-testid="rtu-output"
                          />
                        }
                        label={o.name}
                      />
                      <CommandStateChip state={stateOf(sent[`${rtu.deviceId}:${o.no}`])} />
                    </Box>
                  ))}
                </Box>
              </CardContent>
            </Card>
          );
        })}
      </Box>
      <ConfirmDialog
        open={asking !== null}
        title="Switch output"
        text={asking ? DEVICE_OPS_MESSAGES.outputConfirm(`${asking.output.name} of ${asking.rtu.deviceLabel}`, asking.on) : ''}
        confirmLabel={asking?.on ? 'Switch on' : 'Switch off'}
        busy={send.isPending}
        onConfirm={() => asking && switchOutput(asking)}
        onClose={() => setAsking(null)}
      />
    </>
  );
}

const loading = (
  <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))' }}>
    {[0, 1, 2].map((i) => (
      <Skeleton key={i} variant="rounded" height={220} />
    ))}
  </Box>
);

/** /rtu-multisite: the ethernet RTUs of every site the user sees. */
export function RtuMultisitePage() {
  const [site, setSite] = useState<Option | null>(null);
  const [search, setSearch] = useState('');
  const searchText = useDebounced(search.trim(), 500);
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(20);
  const rtus = useRtus({ ...(site ? { assetId: site.id } : {}), ...(searchText ? { search: searchText } : {}), page: page + 1, limit });
  return (
    <Box>
      <PageHeader title="RTU" subtitle="Inputs and outputs of the ethernet RTUs across your sites" />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        <Box sx={{ minWidth: 220, flex: { xs: 1, sm: 'none' } }}>
          <SitePicker
            label="Site"
            value={site}
            onChange={(v) => {
              setSite(v);
              setPage(0);
            }}
          />
        </Box>
        <TextField
          size="small"
          label="Search"
          placeholder="RTU or site"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(0);
          }}
          sx={{ width: { xs: '100%', sm: 260 } }}
        />
      </Box>
      {rtus.isError ? (
        <ErrorState onRetry={() => rtus.refetch()} />
      ) : rtus.isLoading ? (
        loading
      ) : rtus.data?.totalCount === 0 ? (
        <EmptyState
          compact
          title="No RTUs"
          description={searchText || site ? 'No RTU matches.' : 'No ethernet RTU at the sites you see.'}
        />
      ) : (
        <>
          <RtuCards rtus={rtus.data?.contents ?? []} showSite />
          <TablePagination
            component="div"
            count={rtus.data?.totalCount ?? 0}
            page={page}
            rowsPerPage={limit}
            rowsPerPageOptions={[20, 50, 100]}
            onPageChange={(_e, p) => setPage(p)}
            onRowsPerPageChange={(e) => {
              setLimit(Number(e.target.value));
              setPage(0);
            }}
          />
        </>
      )}
    </Box>
  );
}

/** eth-single-site/view/{id}: the RTUs of one site. */
export function RtuSitePage() {
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0 && id < 2 ** 31;
  const site = useRtuSite(id, valid);
  const state = loadState(site, { title: 'Site not found', back: { to: '/rtu-multisite', label: 'All RTUs' } }, valid);
  if (state) return state;
  const data = site.data;
  if (!data) return null;
  return (
    <Box>
      <PageHeader title={data.site.name} subtitle="Ethernet RTUs of this site" />
      {data.rtus.length === 0 ? (
        <EmptyState compact title="No RTUs" description="This site has no ethernet RTU." />
      ) : (
        <RtuCards rtus={data.rtus} showSite={false} />
      )}
    </Box>
  );
}
