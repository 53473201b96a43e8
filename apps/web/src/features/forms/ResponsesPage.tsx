import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { FORM_MESSAGES, FORM_PERMISSIONS } from '@sitewatch/contracts/forms';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { ExportButton } from '../downloads/ExportButton.tsx';
import { answerText } from './answers.ts';
import { useResponses, useTemplate } from './api.ts';
import { ResponseDialog } from './ResponseDialog.tsx';

const PAGE = 25;
const dayStart = (d: string) => (d ? new Date(`${d}T00:00:00`).toISOString() : undefined);
const dayAfter = (d: string) => (d ? new Date(new Date(`${d}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined);

/** forms/{id}/view: the responses of one form, newest first, with filters, paging and CSV export. */
export function ResponsesPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const template = useTemplate(Number.isInteger(id) && id > 0 ? id : null);
  const canReadAll = permissionsOf(useUser()).has(FORM_PERMISSIONS.readResponses);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setSearch(input.trim()), 400);
    return () => clearTimeout(t);
  }, [input]);
  const filter = useMemo(() => ({ from: dayStart(from), to: dayAfter(to), search: search || undefined }), [from, to, search]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts from the first page
  useEffect(() => setCursors([]), [filter]);
  const cursor = cursors.at(-1);
  const page = useResponses(id, { ...filter, limit: PAGE, cursor });

  if (template.isError || (!template.isPending && !template.data))
    return <EmptyState title={FORM_MESSAGES.notFound} action={<Button onClick={() => navigate('/forms')}>Back to forms</Button>} />;
  const fields = Object.entries(template.data?.metadata.schema.properties ?? {})
    .filter(([, f]) => f.type !== 'labelrenderer' && f.type !== 'filerenderer')
    .slice(0, 3);
  return (
    <>
      <PageHeader
        title={template.data ? `${template.data.label}: responses` : 'Responses'}
        subtitle={
          page.data ? `${page.data.totalCount} response${page.data.totalCount === 1 ? '' : 's'}${canReadAll ? '' : ' of yours'}` : undefined
        }
        actions={
          <>
            <Button component={Link} to={`/form/${id}/create`}>
              Fill
            </Button>
            {canReadAll ? (
              <ExportButton
                kind="form-responses"
                params={{ formTemplate: id, ...filter, search: undefined }}
                fileName={template.data?.label}
              />
            ) : null}
          </>
        }
      />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        <TextField
          type="date"
          label="From"
          size="small"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="date"
          label="To"
          size="small"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField label="Search answers" size="small" value={input} onChange={(e) => setInput(e.target.value)} />
      </Box>
      {page.isError ? <ErrorState onRetry={() => void page.refetch()} /> : null}
      {page.isPending ? (
        <Skeleton variant="rounded" height={240} />
      ) : page.data?.contents.length === 0 ? (
        <EmptyState title="No responses yet" />
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Responses">
            <TableHead>
              <TableRow>
                <TableCell>Submitted</TableCell>
                <TableCell>By</TableCell>
                {fields.map(([k, f]) => (
                  <TableCell key={k} sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                    {f.label || k}
                  </TableCell>
                ))}
                <TableCell>Version</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {page.data?.contents.map((r) => (
                <TableRow
                  key={r.id}
                  hover
                  tabIndex={0}
                  sx={{ cursor: 'pointer' }}
                  onClick={() => setOpen(r.id)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') setOpen(r.id);
                  }}
                  data-testid="response-row"
                >
                  <TableCell>{formatDateTime(r.createdAt)}</TableCell>
                  <TableCell>{r.submittedBy?.name ?? '—'}</TableCell>
                  {fields.map(([k, f]) => (
                    <TableCell key={k} sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                      {answerText(f, r.data[k])}
                    </TableCell>
                  ))}
                  <TableCell>{r.version}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
        <Button disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Newer
        </Button>
        <Button
          disabled={!page.data?.nextCursor}
          onClick={() => page.data?.nextCursor && setCursors((c) => [...c, page.data.nextCursor as string])}
        >
          Older
        </Button>
      </Box>
      {open ? <ResponseDialog formId={id} responseId={open} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
