import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { ErrorState } from '../../components/ErrorState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { answerText } from './answers.ts';
import { useResponseView } from './api.ts';

/** One response, always shown with the template version it was filled against. */
export function ResponseDialog({ formId, responseId, onClose }: { formId: number; responseId: number; onClose(): void }) {
  const view = useResponseView(formId, responseId);
  const data = view.data;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="response-title">
      <DialogTitle id="response-title">{data ? `${data.template.label} — response ${data.response.id}` : 'Response'}</DialogTitle>
      <DialogContent dividers>
        {view.isError ? <ErrorState onRetry={() => void view.refetch()} /> : null}
        {view.isPending ? <Skeleton variant="rounded" height={200} /> : null}
        {data ? (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {data.response.submittedBy?.name ?? 'Unknown user'} ·{' '}
              {data.response.performedAt
                ? `${formatDateTime(data.response.performedAt)} (sent ${formatDateTime(data.response.createdAt)})`
                : formatDateTime(data.response.createdAt)}{' '}
              · version {data.response.version}
              {data.response.ticketIds.length ? ` · ticket ${data.response.ticketIds.join(', ')}` : ''}
            </Typography>
            <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '200px 1fr' }, gap: 1 }}>
              {Object.entries(data.template.metadata.schema.properties)
                .filter(([, f]) => f.type !== 'labelrenderer')
                .map(([key, field]) => (
                  <Box key={key} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" sx={{ fontWeight: 600 }}>
                      {field.label || key}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                      {field.type === 'filerenderer'
                        ? data.response.attachments
                            .filter((a) => Array.isArray(data.response.data[key]) && (data.response.data[key] as string[]).includes(a.uid))
                            .map((a) => (
                              <Link
                                key={a.uid}
                                href={`/ifmapp/dynamic-forms-attachments/${a.uid}/`}
                                download={a.name}
                                sx={{ display: 'block' }}
                              >
                                {a.name}
                              </Link>
                            ))
                        : answerText(field, data.response.data[key])}
                    </Typography>
                  </Box>
                ))}
            </Box>
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
