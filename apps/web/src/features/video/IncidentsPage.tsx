import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import {
  CAMERA_CONSTANTS,
  type Camera,
  INCIDENT_COLUMNS,
  type Incident,
  TABLE_NUMBER_MAX,
  VIDEO_MESSAGES,
} from '@sitewatch/contracts/video';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useDebounced } from '../sites/hooks.ts';
import { useCamera, useCreateIncident, useIncidents, useTableCamera } from './api.ts';
import { CameraPicker } from './CameraPicker.tsx';

const CodeScanDialog = lazy(() => import('../../components/CodeScanDialog.tsx').then((m) => ({ default: m.CodeScanDialog })));
/** Typing a table number looks its camera up once the typing pauses. */
const TABLE_LOOKUP_DEBOUNCE_MS = 300;

const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);

/** SPEC 5: AWB and Table are required and visible by default. */
const [AWB, TABLE] = INCIDENT_COLUMNS;

/** /incident-report: incidents with their clip, AWB and Table. */
export function IncidentsPage() {
  const [pagination, setPagination] = useState({ page: 0, pageSize: 20 });
  const [search, setSearch] = useState('');
  const incidents = useIncidents({ page: pagination.page + 1, limit: pagination.pageSize, search });
  const [open, setOpen] = useState(false);
  const columns: GridColDef<Incident>[] = [
    { field: 'id', headerName: 'ID', width: 80, renderCell: (p) => <Link to={`/incident-report/view/${p.row.id}`}>{p.row.id}</Link> },
    { field: 'title', headerName: 'Title', flex: 1 },
    { field: 'awb', headerName: AWB.label, width: 140 },
    { field: 'tableNumber', headerName: TABLE.label, width: 110 },
    { field: 'cameraLabel', headerName: 'Camera', width: 160 },
    { field: 'eventAt', headerName: 'Event time', width: 190, valueFormatter: (v: string) => new Date(v).toLocaleString() },
    { field: 'durationSec', headerName: 'Seconds', width: 90 },
    { field: 'clipStatus', headerName: 'Clip', width: 100 },
    { field: 'status', headerName: 'Status', width: 100 },
  ];
  return (
    <Box>
      <PageHeader
        title="Incident reports"
        actions={
          <Button variant="contained" onClick={() => setOpen(true)}>
            Add incident
          </Button>
        }
      />
      <TextField size="small" label="Search" value={search} onChange={(e) => setSearch(e.target.value)} sx={{ mb: 2 }} />
      <DataGrid
        autoHeight
        rows={incidents.data?.contents ?? []}
        rowCount={incidents.data?.totalCount ?? 0}
        columns={columns}
        loading={incidents.isLoading}
        paginationMode="server"
        paginationModel={pagination}
        onPaginationModelChange={setPagination}
        pageSizeOptions={[20, 50, 100]}
        disableRowSelectionOnClick
        initialState={{ columns: { columnVisibilityModel: { awb: AWB.visible, tableNumber: TABLE.visible } } }}
      />
      {open ? <IncidentDialog onClose={() => setOpen(false)} /> : null}
    </Box>
  );
}

type ScanField = 'awb' | 'tableNumber';

function IncidentDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateIncident();
  const [form, setForm] = useState({
    title: '',
    description: '',
    awb: '',
    tableNumber: '',
    eventAt: localInput(new Date(Date.now() - 120_000)),
    durationSec: 30,
  });
  const [scanning, setScanning] = useState<ScanField | null>(null);
  const { camera, setCamera, helperText } = useTableCameraPick(form.tableNumber);
  const [error, setError] = useState<string | null>(null);
  const missing = !form.title || !camera || (AWB.required && !form.awb) || (TABLE.required && !form.tableNumber);
  const submit = async () => {
    if (!camera) return;
    setError(null);
    try {
      await create.mutateAsync({ ...form, cameraId: camera.id, eventAt: new Date(form.eventAt).toISOString() });
      toast.success('Successfully Created');
      onClose();
    } catch (e) {
      setError(isHttpError(e) ? (detailOf(e.data) ?? e.message) : 'Failed to save');
    }
  };
  // a scanned label is read at the moment of the event: the event time follows it
  const scanned = (field: ScanField, code: string) => {
    setForm((f) => ({ ...f, [field]: code.trim(), eventAt: localInput(new Date()) }));
    setScanning(null);
    return null;
  };
  const scanButton = (field: ScanField, label: string) => (
    <IconButton aria-label={`Scan ${label}`} onClick={() => setScanning(field)} sx={{ mt: 1 }}>
      <QrCodeScannerIcon />
    </IconButton>
  );
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>Add incident</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        {error ? <Alert severity="error">{error}</Alert> : null}
        {missing ? <Alert severity="info">Please Fill all the required fields</Alert> : null}
        <TextField
          label="Title"
          required
          value={form.title}
          onChange={(e) => setForm({ ...form, title: e.target.value })}
          slotProps={{ htmlInput: { maxLength: 250 } }}
        />
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          <TextField
            label={AWB.label}
            required={AWB.required}
            value={form.awb}
            onChange={(e) => setForm({ ...form, awb: e.target.value })}
            sx={{ flex: 1 }}
          />
          {scanButton('awb', AWB.label)}
        </Box>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          <TextField
            label={TABLE.label}
            required={TABLE.required}
            value={form.tableNumber}
            onChange={(e) => setForm({ ...form, tableNumber: e.target.value })}
            helperText={helperText}
            slotProps={{ htmlInput: { maxLength: TABLE_NUMBER_MAX } }}
            sx={{ flex: 1 }}
          />
          {scanButton('tableNumber', TABLE.label)}
        </Box>
        <CameraPicker onPick={setCamera} value={camera} size="medium" />
        <TextField
          type="datetime-local"
          label="Event time"
          value={form.eventAt}
          onChange={(e) => setForm({ ...form, eventAt: e.target.value })}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
        />
        <TextField
          type="number"
          label={`Clip length (s, at most ${CAMERA_CONSTANTS.incidentMaxDurationSec})`}
          value={form.durationSec}
          onChange={(e) =>
            setForm({ ...form, durationSec: Math.max(1, Math.min(CAMERA_CONSTANTS.incidentMaxDurationSec, Number(e.target.value))) })
          }
        />
        <TextField
          label="Description"
          multiline
          minRows={2}
          value={form.description}
          onChange={(e) => setForm({ ...form, description: e.target.value })}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={missing || create.isPending} onClick={() => void submit()}>
          Save
        </Button>
      </DialogActions>
      {scanning ? (
        <Suspense fallback={null}>
          <CodeScanDialog
            open
            title={`Scan ${scanning === 'awb' ? AWB.label : TABLE.label}`}
            action="Use"
            onClose={() => setScanning(null)}
            onCode={(code) => scanned(scanning, code)}
          />
        </Suspense>
      ) : null}
    </Dialog>
  );
}

/**
 * The camera of the incident: the one that watches the typed or scanned table, unless the user picks another for
 * that table (a pick made before any mapped table stays until one is found).
 */
function useTableCameraPick(tableNumber: string) {
  const table = useDebounced(tableNumber.trim(), TABLE_LOOKUP_DEBOUNCE_MS);
  const mapped = useTableCamera(table);
  const mappedCamera = useCamera(mapped.data?.id ?? 0);
  const [picked, setPicked] = useState<{ table: string; camera: Camera | null } | null>(null);
  const camera = picked && picked.table === table ? picked.camera : (mappedCamera.data ?? picked?.camera ?? null);
  const helperText =
    !table || table !== tableNumber.trim() || mapped.isFetching
      ? undefined
      : mapped.data
        ? VIDEO_MESSAGES.tableCamera(table, mapped.data.name)
        : VIDEO_MESSAGES.noTableCamera(table);
  return { camera, setCamera: (c: Camera | null) => setPicked({ table, camera: c }), helperText };
}
