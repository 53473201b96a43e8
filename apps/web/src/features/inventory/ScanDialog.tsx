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
import { findItemByCode } from './api.ts';
import type { ItemChoice } from './types.ts';

/** A label holds the item's code (or a link carrying it as `?code=`). */
const codeOf = (text: string) => {
  const trimmed = text.trim();
  const fromUrl = /[?&]code=([^&]+)/.exec(trimmed);
  return fromUrl?.[1] ? decodeURIComponent(fromUrl[1]) : trimmed;
};

/**
 * Scans an item label (QR or barcode) with the phone's camera; the decoder (`@zxing/browser`) loads only when this
 * opens. Typing the code is the fallback when there is no camera or it may not be used.
 */
export function ScanDialog(props: { open: boolean; onClose(): void; onFound(item: ItemChoice): void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const video = useRef<HTMLVideoElement>(null);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const found = useRef(false);
  const { onFound } = props;

  const lookUp = async (text: string) => {
    const wanted = codeOf(text);
    if (!wanted) {
      setError('Enter the code on the label');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const page = await findItemByCode(wanted);
      const item = page.contents[0];
      if (!item) {
        setError(`No item has the code ${wanted}`);
        found.current = false;
        return;
      }
      onFound({ id: item.id, code: item.code, name: item.name, unit: item.unit, tracking: item.tracking });
    } catch {
      setError('The item could not be looked up. Please try again.');
      found.current = false;
    } finally {
      setBusy(false);
    }
  };
  const lookUpRef = useRef(lookUp);
  lookUpRef.current = lookUp;

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
          void lookUpRef.current(result.getText());
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
      <DialogTitle id={titleId}>Scan item label</DialogTitle>
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
              void lookUp(code);
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
              Find
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
