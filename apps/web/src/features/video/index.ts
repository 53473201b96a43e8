/** What other features may use from video: the SPEC 2.15 popups (ticket view) and the snapshot with retries. */

export { useCameras } from './api.ts';
export { CameraAtEventButton } from './CameraAtEventButton.tsx';
export { CameraPicker } from './CameraPicker.tsx';
export { LiveTile } from './LiveTile.tsx';
export { loadPopups } from './popup-store.ts';
export { CameraRecordingDialog, LiveVideoDialog } from './popups.tsx';
export { RecordingPlayer } from './RecordingPlayer.tsx';
export { SNAPSHOT_PLACEHOLDER, Snapshot } from './Snapshot.tsx';
export { TicketVideoEvidence } from './TicketVideoEvidence.tsx';
