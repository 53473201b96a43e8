import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  REPORT_FORMAT_LABELS,
  REPORT_FORMATS,
  REPORT_KIND_LABELS,
  REPORT_WEEKDAYS,
  type ReportFormat,
  type ReportKind,
  type ReportSchedule,
  reportScheduleInputSchema,
  SCHEDULE_FREQUENCIES,
  SCHEDULE_FREQUENCY_LABELS,
  type ScheduleFrequency,
} from '@sitewatch/contracts/reports';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useCreateSchedule, useDeleteSchedule, useSchedules, useStartExport } from './api.ts';

/** Filters as they go to an export or a schedule: empty values left out. */
export const cleanParams = (params: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '' && v !== undefined && v !== null));

const describe = (s: ReportSchedule) => {
  const when =
    s.frequency === 'WEEKLY'
      ? `every ${REPORT_WEEKDAYS[s.dayOfWeek ?? 1]}`
      : s.frequency === 'MONTHLY'
        ? `monthly on day ${s.dayOfMonth}`
        : 'daily';
  return `${s.name}: ${when} at ${s.time} UTC, ${REPORT_FORMAT_LABELS[s.format]}`;
};

/** Export (CSV, XLSX, PDF in the background, to /downloads) and "Schedule this report" for one report and its filters. */
export function ReportActions({ kind, params }: { kind: ReportKind; params: Record<string, unknown> }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const start = useStartExport();
  const handleExport = (format: ReportFormat) => {
    setAnchor(null);
    start.mutate(
      { kind, format, params: cleanParams(params) },
      {
        onSuccess: () =>
          toast.success(`Export started: ${REPORT_KIND_LABELS[kind]} (${REPORT_FORMAT_LABELS[format]}). The file will be in Downloads.`),
      },
    );
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      <Button variant="outlined" onClick={(e) => setAnchor(e.currentTarget)} disabled={start.isPending} data-testid={`export-${kind}`}>
        Export
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {REPORT_FORMATS.map((f) => (
          <MenuItem key={f} onClick={() => handleExport(f)} data-testid={`export-format-${f}`}>
            {REPORT_FORMAT_LABELS[f]}
          </MenuItem>
        ))}
      </Menu>
      <Button variant="outlined" onClick={() => setScheduling(true)} data-testid={`schedule-${kind}`}>
        Schedule this report
      </Button>
      {scheduling ? <ScheduleDialog kind={kind} params={cleanParams(params)} onClose={() => setScheduling(false)} /> : null}
    </Box>
  );
}

/** The caller's schedules of one report, each deletable after a confirmation. */
export function ScheduleList({ kind }: { kind: ReportKind }) {
  const schedules = useSchedules(kind);
  const remove = useDeleteSchedule();
  const [deleting, setDeleting] = useState<ReportSchedule | null>(null);
  const rows = schedules.data?.contents ?? [];
  if (rows.length === 0) return null;
  return (
    <Box sx={{ mt: 2 }} data-testid="schedule-list">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Scheduled
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        {rows.map((s) => (
          <Chip
            key={s.id}
            label={describe(s)}
            onDelete={() => setDeleting(s)}
            sx={{ maxWidth: '100%' }}
            title={`Next run ${new Date(s.nextRunAt).toLocaleString()}`}
          />
        ))}
      </Stack>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete '${deleting?.name ?? ''}'?`}
        text="The report will no longer be produced. Files already in Downloads stay."
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success('Schedule deleted');
              setDeleting(null);
            },
          })
        }
      />
    </Box>
  );
}

function ScheduleDialog({ kind, params, onClose }: { kind: ReportKind; params: Record<string, unknown>; onClose(): void }) {
  const [name, setName] = useState(REPORT_KIND_LABELS[kind]);
  const [frequency, setFrequency] = useState<ScheduleFrequency>('DAILY');
  const [time, setTime] = useState('06:00');
  const [dayOfWeek, setDayOfWeek] = useState(1);
  const [dayOfMonth, setDayOfMonth] = useState('1');
  const [format, setFormat] = useState<ReportFormat>('xlsx');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateSchedule();
  const handleSave = () => {
    const body = {
      kind,
      name,
      frequency,
      time,
      dayOfWeek: frequency === 'WEEKLY' ? dayOfWeek : null,
      dayOfMonth: frequency === 'MONTHLY' ? Number(dayOfMonth) : null,
      format,
      params,
    };
    const parsed = reportScheduleInputSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? 'form'), i.message])));
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('Report scheduled');
        onClose();
      },
      onError: (error) => setErrors({ form: (isHttpError(error) && detailOf(error.data)) || 'The schedule was not saved' }),
    });
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="schedule-dialog">
      <DialogTitle>Schedule this report</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {REPORT_KIND_LABELS[kind]} with the current filters. The file lands in Downloads and your inbox.
          </Typography>
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={Boolean(errors.name)}
            helperText={errors.name}
          />
          <TextField select label="Frequency" value={frequency} onChange={(e) => setFrequency(e.target.value as ScheduleFrequency)}>
            {SCHEDULE_FREQUENCIES.map((f) => (
              <MenuItem key={f} value={f}>
                {SCHEDULE_FREQUENCY_LABELS[f]}
              </MenuItem>
            ))}
          </TextField>
          {frequency === 'WEEKLY' ? (
            <TextField select label="Day of the week" value={dayOfWeek} onChange={(e) => setDayOfWeek(Number(e.target.value))}>
              {REPORT_WEEKDAYS.map((d, i) => (
                <MenuItem key={d} value={i}>
                  {d}
                </MenuItem>
              ))}
            </TextField>
          ) : null}
          {frequency === 'MONTHLY' ? (
            <TextField
              label="Day of the month"
              type="number"
              value={dayOfMonth}
              onChange={(e) => setDayOfMonth(e.target.value)}
              slotProps={{ htmlInput: { min: 1, max: 28 } }}
              error={Boolean(errors.dayOfMonth)}
              helperText={errors.dayOfMonth ?? '1 to 28'}
            />
          ) : null}
          <TextField
            label="Time (UTC)"
            type="time"
            value={time}
            onChange={(e) => setTime(e.target.value)}
            error={Boolean(errors.time)}
            helperText={errors.time}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField select label="Format" value={format} onChange={(e) => setFormat(e.target.value as ReportFormat)}>
            {REPORT_FORMATS.map((f) => (
              <MenuItem key={f} value={f}>
                {REPORT_FORMAT_LABELS[f]}
              </MenuItem>
            ))}
          </TextField>
          {errors.form || errors.params ? (
            <Typography color="error" variant="body2" role="alert">
              {errors.form ?? errors.params}
            </Typography>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={handleSave} disabled={create.isPending} data-testid="schedule-save">
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
