import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useId, useRef, useState } from 'react';

/**
 * Scans a label (QR or barcode) with the phone's camera; the decoder (`@zxing/browser`) loads only when this opens.
 * Typing the code is the fallback when there is no camera or it may not be used. `onCode` takes a decoded or typed
 * code and answers what went wrong with it, or null when it was taken.
 */
export function CodeScanDialog(props: {
  open: boolean;
  title: string;
  /** The button that takes a typed code. */
  action?: string;
  onClose(): void;
  onCode(code: string): Promise<string | null> | string | null;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const video = useRef<HTMLVideoElement>(null);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const found = useRef(false);

  const take = async (text: string) => {
    if (!text.trim()) {
      setError('Enter the code on the label');
      found.current = false;
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const problem = await props.onCode(text);
      setError(problem);
      // a code that was not taken lets the camera read the next one
      if (problem) found.current = false;
    } finally {
      setBusy(false);
    }
  };
  const takeRef = useRef(take);
  takeRef.current = take;

  useEffect(() => {
    if (!props.open) return;
    let stop: (() => void) | null = null;
    let live = true;
    if (!navigator.mediaDevices?.getUserMedia) {
      setCameraError('This browser cannot use a camera here: type the code instead.');
      return;
    }
    import('@zxing/browser')
      .then(async ({ BrowserMultiFormatReader }) => {
        if (!live || !video.current) return;
        const reader = new BrowserMultiFormatReader();
        const controls = await reader.decodeFromConstraints({ video: { facingMode: 'environment' } }, video.current, (result) => {
          if (!result || found.current) return;
          found.current = true;
          void takeRef.current(result.getText());
        });
        if (live) stop = () => controls.stop();
        else controls.stop();
      })
      .catch(() => {
        if (live) setCameraError('The camera is not available: type the code instead.');
      });
    return () => {
      live = false;
      stop?.();
    };
  }, [props.open]);

  return (
    <Dialog open={props.open} onClose={props.onClose} fullScreen={phone} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'grid', gap: 2 }}>
          {cameraError ? (
            <Alert severity="info">{cameraError}</Alert>
          ) : (
            <Box
              component="video"
              ref={video}
              muted
              playsInline
              aria-label="Camera preview"
              sx={{ width: '100%', aspectRatio: '1 / 1', objectFit: 'cover', bgcolor: 'black', borderRadius: 1 }}
            />
          )}
          <Box
            component="form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void take(code);
            }}
            sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
          >
            <TextField
              size="small"
              label="Or type the code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              error={Boolean(error)}
              helperText={error}
              sx={{ flex: 1 }}
              slotProps={{ htmlInput: { 'data-testid': 'scan-code', autoCapitalize: 'characters' } }}
            />
            <Button type="submit" variant="outlined" disabled={busy} data-testid="scan-find">
              {props.action ?? 'Find'}
            </Button>
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
