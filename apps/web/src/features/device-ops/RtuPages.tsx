import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { DEVICE_OPS_MESSAGES, DEVICE_OPS_METHODS, type IoPoint, RTU_KEYS, type Rtu } from '@sitewatch/contracts/device-ops';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { loadState } from '../../components/LoadState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { asBool, type LiveValues, useLiveValues, useRtuSite, useRtus } from './api.ts';
import { CommandStateChip } from './components.tsx';
import { CardGrid, DeviceCard, DeviceListFilterBar, DeviceListShell, useDeviceListFilters } from './DeviceListShell.tsx';
import { useConfirmedCommand } from './useConfirmedCommand.ts';

const live = (points: IoPoint[], values: Record<string, unknown> | undefined, key: (n: number) => string) =>
  points.map((p) => ({ ...p, on: asBool(values?.[key(p.no)] as never, p.on) }));

interface Switching {
  rtu: Rtu;
  output: IoPoint;
  on: boolean;
}

/** The RTU cards of a list: inputs as lamps, outputs as switches sent as commands after a confirmation. */
function RtuCards({ rtus, showSite }: { rtus: Rtu[]; showSite: boolean }) {
  const values: LiveValues = useLiveValues(rtus.map((r) => r.deviceId));
  const keyOf = (rtu: Rtu, output: IoPoint) => `${rtu.deviceId}:${output.no}`;
  const command = useConfirmedCommand(({ rtu, output, on }: Switching) => ({
    key: keyOf(rtu, output),
    deviceId: rtu.deviceId,
    method: DEVICE_OPS_METHODS.setOutput,
    params: { output: output.no, on },
  }));
  const asking = command.asking;
  return (
    <>
      {rtus.map((rtu) => {
        const inputs = live(rtu.inputs, values[rtu.deviceId], RTU_KEYS.input);
        const outputs = live(rtu.outputs, values[rtu.deviceId], RTU_KEYS.output);
        return (
          <DeviceCard key={rtu.deviceId} label={rtu.deviceLabel} status={rtu.status} testId="rtu-card">
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
                        disabled={!command.allowed || rtu.status === 'Not yet connected'}
                        onChange={(e) => command.ask({ rtu, output: o, on: e.target.checked })}
                        slotProps={{ input: { 'aria-label': `${o.name} of ${rtu.deviceLabel}` } }}
                        data-testid="rtu-output"
                      />
                    }
                    label={o.name}
                  />
                  <CommandStateChip state={command.stateOf(keyOf(rtu, o))} />
                </Box>
              ))}
            </Box>
          </DeviceCard>
        );
      })}
      <ConfirmDialog
        {...command.dialog}
        title="Switch output"
        text={asking ? DEVICE_OPS_MESSAGES.outputConfirm(`${asking.output.name} of ${asking.rtu.deviceLabel}`, asking.on) : ''}
        confirmLabel={asking?.on ? 'Switch on' : 'Switch off'}
      />
    </>
  );
}

const RTU_CARD = { minWidth: 300, height: 220 };

/** /rtu-multisite: the ethernet RTUs of every site the user sees. */
export function RtuMultisitePage() {
  const filters = useDeviceListFilters(20);
  const rtus = useRtus(filters.query);
  return (
    <Box>
      <PageHeader title="RTU" subtitle="Inputs and outputs of the ethernet RTUs across your sites" />
      <DeviceListFilterBar filters={filters} searchPlaceholder="RTU or site" />
      <DeviceListShell
        list={rtus}
        filters={filters}
        card={RTU_CARD}
        testId="rtu-list"
        empty={{ title: 'No RTUs', description: filters.filtered ? 'No RTU matches.' : 'No ethernet RTU at the sites you see.' }}
        pageSizes={[20, 50, 100]}
      >
        {(items) => <RtuCards rtus={items} showSite />}
      </DeviceListShell>
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
        <CardGrid minWidth={RTU_CARD.minWidth} testId="rtu-list">
          <RtuCards rtus={data.rtus} showSite={false} />
        </CardGrid>
      )}
    </Box>
  );
}
