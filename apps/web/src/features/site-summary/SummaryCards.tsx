import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { DEFAULT_DEVICE_TYPE_CONFIG, DEVICE_STATUS_COLOURS, type DeviceType, SUMMARY_STATUS_LABELS } from '@sitewatch/contracts/devices';
import { SITE_SUMMARY } from '@sitewatch/contracts/sites';
import { useEffect, useState } from 'react';
import { useStatusColours } from '../../components/useStatusColours.ts';
import type { Query } from '../../lib/http-client.ts';
import { type TypeCount, useStatusCounts } from '../devices/api.ts';

const LABELS = new Map(DEFAULT_DEVICE_TYPE_CONFIG.map((c) => [c.type, c.label]));
const DEFAULT_TYPES = DEFAULT_DEVICE_TYPE_CONFIG.map((c) => c.type);

function CountCard({
  count,
  label,
  loading,
  selected,
  onSelect,
}: {
  count?: TypeCount;
  label: string;
  loading: boolean;
  selected: boolean;
  onSelect(): void;
}) {
  const colours = useStatusColours();
  return (
    <Card
      variant="outlined"
      sx={{ borderColor: selected ? 'primary.main' : undefined, borderWidth: selected ? 2 : 1 }}
      data-testid="summary-card"
    >
      <CardActionArea onClick={onSelect} aria-pressed={selected}>
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between' }}>
            <Typography variant="subtitle2">{label}</Typography>
            {loading ? <CircularProgress size={16} /> : <Typography variant="h5">{count?.total ?? 0}</Typography>}
          </Box>
          <Box sx={{ display: 'grid', gridTemplateColumns: '1fr auto', mt: 1, rowGap: 0.25 }}>
            {(
              [
                ['online', 'Online'],
                ['offline', 'Offline'],
                ['notC', 'Not yet connected'],
              ] as const
            ).map(([key, status]) => (
              <Box key={key} sx={{ display: 'contents' }}>
                <Typography variant="body2" sx={{ color: colours.text(DEVICE_STATUS_COLOURS[status]) }}>
                  {SUMMARY_STATUS_LABELS[key]}
                </Typography>
                <Typography variant="body2" sx={{ fontWeight: 600, textAlign: 'right' }}>
                  {loading ? '' : (count?.[key] ?? 0)}
                </Typography>
              </Box>
            ))}
          </Box>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/**
 * SPEC 2.11: a card per device type, the parent type labelled Site, DVR/NVR and Alarm Panel first; the other
 * types follow 2 s after load. Choosing a card filters the table to that type.
 */
export function SummaryCards({
  filter,
  selected,
  onSelect,
}: {
  filter: Query;
  selected: DeviceType | null;
  onSelect(type: DeviceType | null): void;
}) {
  const [later, setLater] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLater(true), SITE_SUMMARY.otherTypesDelayMs);
    return () => clearTimeout(timer);
  }, []);
  const first = useStatusCounts({ ...filter, types: DEFAULT_TYPES.join(',') });
  const all = useStatusCounts(filter, { enabled: later });
  const others = (all.data?.contents ?? []).filter((c) => !DEFAULT_TYPES.includes(c.type));
  const cards: { type: DeviceType; label: string; count?: TypeCount; loading: boolean }[] = [
    ...DEFAULT_TYPES.map((type) => ({
      type,
      label: LABELS.get(type) ?? type,
      count: first.data?.contents.find((c) => c.type === type),
      loading: first.isLoading || first.isFetching,
    })),
    ...others.map((c) => ({ type: c.type, label: c.label, count: c, loading: all.isFetching })),
  ];
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', mb: 3 }} data-testid="summary-cards">
      {cards.map((c) => (
        <CountCard
          key={c.type}
          count={c.count}
          label={c.label}
          loading={c.loading}
          selected={selected === c.type}
          onSelect={() => onSelect(selected === c.type ? null : c.type)}
        />
      ))}
    </Box>
  );
}
