import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  type AnalyticsLink,
  analyticsLinkInputSchema,
  DASHBOARD_LIMITS,
  RLS_CATALOGUE,
  RLS_COLUMN_LABELS,
  RLS_OPERATORS,
  type RlsDataset,
} from '@sitewatch/contracts/dashboards';
import { useState } from 'react';
import { useCreateLink, useDashboardList } from '../dashboards/api.ts';
import { messageOf } from '../dashboards/components/errors.ts';

interface ConditionDraft {
  key: number;
  column: string;
  operator: (typeof RLS_OPERATORS)[number];
  values: string;
}

const COLUMNS = Object.entries(RLS_CATALOGUE).flatMap(([dataset, columns]) =>
  Object.entries(columns).map(([column, type]) => ({ key: `${dataset}.${column}`, dataset: dataset as RlsDataset, column, type })),
);
const OPERATOR_LABELS: Record<ConditionDraft['operator'], string> = { eq: 'is', in: 'is one of', not_in: 'is not one of' };

/** A local date-time input value `days` from now. */
const inDays = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setSeconds(0, 0);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** The conditions as the contract takes them: ids as numbers, the rest as text. */
export function toConditions(drafts: readonly ConditionDraft[]) {
  return drafts.map((c) => {
    const col = COLUMNS.find((x) => x.key === c.column);
    const parts = c.values
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    return {
      dataset: (col?.dataset ?? 'sites') as RlsDataset,
      column: col?.column ?? c.column,
      operator: c.operator,
      values: col?.type === 'id' ? parts.map((v) => (/^\d+$/.test(v) ? Number(v) : v)) : parts,
    };
  });
}

/** Create a shared link: the analytics dashboard, a label, an expiry and the row conditions it is limited to. */
export function LinkDialog({ onCreated, onClose }: { onCreated(link: AnalyticsLink): void; onClose(): void }) {
  const fullScreen = useMediaQuery('(max-width:600px)');
  const dashboards = useDashboardList({ type: 'ANALYTICS', limit: 200 });
  const [dashboardId, setDashboardId] = useState('');
  const [label, setLabel] = useState('');
  const [expires, setExpires] = useState(inDays(30));
  const [conditions, setConditions] = useState<ConditionDraft[]>([]);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateLink();
  const handleCreate = () => {
    setError(null);
    const expiresAt = new Date(expires);
    const body = {
      dashboardId: Number(dashboardId),
      label: label.trim(),
      expiresAt: Number.isNaN(expiresAt.getTime()) ? '' : expiresAt.toISOString(),
      rls_conditions: toConditions(conditions),
    };
    const parsed = analyticsLinkInputSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return setError(issue?.path[0] === 'dashboardId' ? 'Choose a dashboard' : (issue?.message ?? 'Check the form'));
    }
    create.mutate(parsed.data, { onSuccess: onCreated, onError: (e) => setError(messageOf(e)) });
  };
  const options = dashboards.data?.contents ?? [];
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} data-testid="link-dialog">
      <DialogTitle>Create link</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
          {error ? <Alert severity="error">{error}</Alert> : null}
          {dashboards.isSuccess && options.length === 0 ? (
            <Alert severity="info">No analytics dashboards yet: set a dashboard's type to Analytics.</Alert>
          ) : null}
          <TextField
            select
            label="Dashboard"
            value={dashboardId}
            onChange={(e) => setDashboardId(e.target.value)}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'link-dashboard' } as object } }}
          >
            {options.map((d) => (
              <MenuItem key={d.id} value={String(d.id)}>
                {d.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Label"
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            slotProps={{ htmlInput: { maxLength: DASHBOARD_LIMITS.label, 'data-testid': 'link-label' } }}
          />
          <TextField
            label="Expires"
            type="datetime-local"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'link-expires' } }}
          />
          <Typography variant="subtitle2">Conditions</Typography>
          {conditions.map((c, i) => (
            <Box
              key={c.key}
              sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: '1.3fr 1fr 1.5fr auto' }, alignItems: 'center' }}
            >
              <TextField
                select
                size="small"
                label="Field"
                value={c.column}
                onChange={(e) => setConditions((all) => all.map((x, j) => (j === i ? { ...x, column: e.target.value } : x)))}
              >
                {COLUMNS.map((col) => (
                  <MenuItem key={col.key} value={col.key}>
                    {RLS_COLUMN_LABELS[col.key] ?? col.key}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                size="small"
                label="Operator"
                value={c.operator}
                onChange={(e) =>
                  setConditions((all) =>
                    all.map((x, j) => (j === i ? { ...x, operator: e.target.value as ConditionDraft['operator'] } : x)),
                  )
                }
              >
                {RLS_OPERATORS.map((op) => (
                  <MenuItem key={op} value={op}>
                    {OPERATOR_LABELS[op]}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                size="small"
                label="Values (comma separated)"
                value={c.values}
                onChange={(e) => setConditions((all) => all.map((x, j) => (j === i ? { ...x, values: e.target.value } : x)))}
              />
              <IconButton aria-label="Remove condition" onClick={() => setConditions((all) => all.filter((_x, j) => j !== i))}>
                <DeleteOutlined />
              </IconButton>
            </Box>
          ))}
          <Box>
            <Button
              size="small"
              startIcon={<AddOutlined />}
              disabled={conditions.length >= DASHBOARD_LIMITS.rlsConditions}
              onClick={() =>
                setConditions((all) => [...all, { key: (all.at(-1)?.key ?? 0) + 1, column: 'sites.id', operator: 'in', values: '' }])
              }
            >
              Add condition
            </Button>
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={handleCreate} disabled={create.isPending} data-testid="link-create">
          Create
        </Button>
      </DialogActions>
    </Dialog>
  );
}
