import CloseIcon from '@mui/icons-material/Close';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import { CAMERA_CONSTANTS, VIDEO_MESSAGES } from '@sitewatch/contracts/video';
import { LiveTile } from './LiveTile.tsx';
import { RecordingPlayer } from './RecordingPlayer.tsx';

function Title({ text, onClose }: { text: string; onClose: () => void }) {
  return (
    <DialogTitle sx={{ display: 'flex', alignItems: 'center' }}>
      <span style={{ flex: 1 }}>{text}</span>
      <IconButton aria-label="Close" onClick={onClose}>
        <CloseIcon />
      </IconButton>
    </DialogTitle>
  );
}

/** SPEC 2.15 'Live Video' popup: the camera live; closing it stops the stream (DELETE live-view). */
export function LiveVideoDialog({
  open,
  cameraId,
  label,
  onClose,
}: {
  open: boolean;
  cameraId: number;
  label: string;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth>
      <Title text={VIDEO_MESSAGES.liveVideo} onClose={onClose} />
      <DialogContent>{open ? <LiveTile cameraId={cameraId} label={label} height={420} /> : null}</DialogContent>
    </Dialog>
  );
}

/**
 * SPEC 2.15 'CAMERA RECORDING' popup: the footage around an event, `windowSec` (SPEC 9: 300 s, configurable)
 * either side of `eventDate`.
 */
export function CameraRecordingDialog({
  open,
  cameraId,
  label,
  eventDate,
  windowSec = CAMERA_CONSTANTS.recordingWindowSec,
  onClose,
}: {
  open: boolean;
  cameraId: number;
  label: string;
  eventDate: string;
  windowSec?: number;
  onClose: () => void;
}) {
  const at = Date.parse(eventDate);
  const from = new Date(at - windowSec * 1000).toISOString();
  const to = new Date(Math.min(Date.now(), at + windowSec * 1000)).toISOString();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth>
      <Title text={VIDEO_MESSAGES.cameraRecording} onClose={onClose} />
      <DialogContent>{open ? <RecordingPlayer cameraId={cameraId} label={label} from={from} to={to} height={400} /> : null}</DialogContent>
    </Dialog>
  );
}
