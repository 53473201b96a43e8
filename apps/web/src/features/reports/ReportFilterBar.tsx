import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { ReportKind } from '@sitewatch/contracts/reports';
import { useStoreOptions } from './api.ts';
import { cleanParams, ReportActions } from './ReportActions.tsx';

/** The message under "To" when a report's period is backwards; such a period is not queried. */
export const dateRangeError = (from: string, to: string) => (from && to && from > to ? 'The start date must be before the end date' : '');

export interface DateRange {
  from: string;
  to: string;
  onFrom(value: string): void;
  onTo(value: string): void;
}

/**
 * The bar above a report table: its filters, then the period (From, To) when the report has one, then Export and
 * "Schedule this report" for exactly the filters shown (empty ones left out).
 */
export function ReportFilterBar({
  kind,
  params,
  dates,
  children,
}: {
  kind: ReportKind;
  params: Record<string, unknown>;
  dates?: DateRange;
  children?: React.ReactNode;
}) {
  const invalid = dates ? dateRangeError(dates.from, dates.to) : '';
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2, '& > .MuiTextField-root': { minWidth: { xs: '100%', sm: 150 } } }}>
      {children}
      {dates
        ? (['from', 'to'] as const).map((end) => (
            <TextField
              key={end}
              size="small"
              type="date"
              label={end === 'from' ? 'From' : 'To'}
              value={dates[end]}
              onChange={(e) => (end === 'from' ? dates.onFrom : dates.onTo)(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
              error={end === 'to' && Boolean(invalid)}
              helperText={end === 'to' ? invalid : undefined}
              data-testid={`filter-${end}`}
            />
          ))
        : null}
      <ReportActions kind={kind} params={cleanParams(params)} />
    </Box>
  );
}

/** The store a report is limited to ("All stores" by default). */
export function StoreFilter({ value, onChange }: { value: string; onChange(v: string): void }) {
  const stores = useStoreOptions();
  return (
    <TextField select size="small" label="Store" value={value} onChange={(e) => onChange(e.target.value)} data-testid="filter-store">
      <MenuItem value="">All stores</MenuItem>
      {(stores.data?.contents ?? []).map((s) => (
        <MenuItem key={s.id} value={String(s.id)}>
          {s.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
