import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ANALYSIS_CONSTANTS, type AnalysisResult, FALSE_POSITIVE_REASONS } from '@sitewatch/contracts/analysis';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { RecordingPlayer } from '../video/index.ts';
import { frameUrl, useAnalysisQueue, usePrefetchQueue, useVerdict } from './api.ts';
import { analyserLabel } from './labels.ts';

const clipRange = (r: AnalysisResult) => {
  const at = Date.parse(r.at);
  const half = ANALYSIS_CONSTANTS.clipSeconds * 1000;
  return { from: new Date(at - half).toISOString(), to: new Date(at + half).toISOString() };
};

/**
 * /result-verification: the unverified results one at a time, clip and frame side by side. Two keystrokes per
 * result: T then Enter for a true positive, F then a digit for a false positive with its reason; the next result
 * was loaded meanwhile and shows at once.
 */
export function VerificationPage() {
  const [after, setAfter] = useState<number | null>(null);
  const [choice, setChoiceState] = useState<'T' | 'F' | null>(null);
  // Read by the key handler: a second key can arrive before React has re-rendered with the first one's choice.
  const choiceNow = useRef<'T' | 'F' | null>(null);
  const setChoice = useCallback((value: 'T' | 'F' | null) => {
    choiceNow.current = value;
    setChoiceState(value);
  }, []);
  const queue = useAnalysisQueue(after);
  const prefetch = usePrefetchQueue();
  const verdict = useVerdict();
  const current = queue.data?.next ?? null;

  useEffect(() => {
    if (current) void prefetch(current.id);
  }, [current, prefetch]);

  const answer = useCallback(
    (value: 'TRUE_POSITIVE' | 'FALSE_POSITIVE', reason?: string) => {
      if (!current || verdict.isPending) return;
      verdict.mutate(
        { id: current.id, verdict: value, ...(reason ? { reason } : {}) },
        {
          onSuccess: () => {
            setChoice(null);
            setAfter(current.id);
          },
        },
      );
    },
    [current, verdict, setChoice],
  );

  // Attached as the result is drawn, not after the paint: a key pressed as soon as it shows answers this one.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.metaKey || e.ctrlKey || e.altKey) return;
      const key = e.key.toUpperCase();
      if (key === 'T' || key === 'F') setChoice(key);
      else if (key === 'ESCAPE') setChoice(null);
      else if (key === 'ENTER' && choiceNow.current === 'T') answer('TRUE_POSITIVE');
      else if (choiceNow.current === 'F' && /^[1-9]$/.test(key)) {
        const reason = FALSE_POSITIVE_REASONS[Number(key) - 1];
        if (reason) answer('FALSE_POSITIVE', reason);
      } else if (key === 'S' && current) setAfter(current.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [answer, current, setChoice]);

  if (queue.isLoading) return <PageLoader />;
  return (
    <Box>
      <PageHeader title="Result Verification" />
      {queue.isError ? <Alert severity="error">The queue could not be loaded.</Alert> : null}
      {!current ? (
        <EmptyState
          title="Nothing to verify"
          description="Every analysis result has a verdict. New results appear here as the analysers find them."
          action={
            <Button component={Link} to="/image-analysis">
              See all results
            </Button>
          }
          data-testid="verification-empty"
        />
      ) : (
        <Paper sx={{ p: 2 }} data-testid="verification-item" data-result-id={current.id}>
          <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap', alignItems: 'center' }} useFlexGap>
            <Typography variant="h6" component="h2">
              {analyserLabel(current.analyser)}
            </Typography>
            <Chip size="small" label={`Score ${current.score.toFixed(2)}`} />
            <Chip size="small" variant="outlined" label={`${queue.data?.waiting ?? 0} waiting`} />
          </Stack>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {current.cameraLabel} · {formatDateTime(current.at)} · {current.detail}
            {current.ticketId ? (
              <>
                {' · '}
                <Link to={`/tickets/all/${current.ticketId}`}>{current.ticketNo}</Link>
              </>
            ) : null}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
            <RecordingPlayer
              key={current.id}
              cameraId={current.cameraId}
              label="Clip around the event"
              {...clipRange(current)}
              height={260}
            />
            <Box>
              <Typography variant="subtitle2">Frame</Typography>
              {current.hasFrame ? (
                <Box
                  component="img"
                  src={frameUrl(current.id)}
                  alt={`Frame of ${current.cameraLabel} at the finding`}
                  sx={{ width: '100%', maxHeight: 260, objectFit: 'contain', bgcolor: '#000', borderRadius: 1 }}
                />
              ) : (
                <Alert severity="info">No picture: the camera recorded nothing then.</Alert>
              )}
            </Box>
          </Box>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 2 }} useFlexGap>
            <Button
              variant={choice === 'T' ? 'contained' : 'outlined'}
              color="error"
              onClick={() => answer('TRUE_POSITIVE')}
              disabled={verdict.isPending}
            >
              True positive (T, Enter)
            </Button>
            <Button
              variant={choice === 'F' ? 'contained' : 'outlined'}
              color="success"
              onClick={() => setChoice('F')}
              disabled={verdict.isPending}
            >
              False positive (F, then 1–{FALSE_POSITIVE_REASONS.length})
            </Button>
            <Button onClick={() => setAfter(current.id)} disabled={verdict.isPending}>
              Skip (S)
            </Button>
          </Stack>
          {choice === 'F' ? (
            <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }} useFlexGap aria-label="Reason">
              {FALSE_POSITIVE_REASONS.map((reason, i) => (
                <Button key={reason} size="small" variant="outlined" onClick={() => answer('FALSE_POSITIVE', reason)}>
                  {i + 1}. {reason}
                </Button>
              ))}
            </Stack>
          ) : null}
          {verdict.isError ? (
            <Alert severity="error" sx={{ mt: 1 }}>
              The verdict could not be saved.
            </Alert>
          ) : null}
        </Paper>
      )}
    </Box>
  );
}
