import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

/** Moving an occurrence of a recurring event: this occurrence alone, or the whole series. */
export function RescheduleDialog(props: {
  open: boolean;
  title: string;
  onChoose(scope: 'occurrence' | 'series'): void;
  onCancel(): void;
}) {
  return (
    <Dialog open={props.open} onClose={props.onCancel} aria-labelledby="reschedule-title">
      <DialogTitle id="reschedule-title">Move a recurring event</DialogTitle>
      <DialogContent>
        <DialogContentText>“{props.title}” repeats. Move only this occurrence, or the whole series?</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button onClick={() => props.onChoose('series')} data-testid="reschedule-series">
          The whole series
        </Button>
        <Button variant="contained" onClick={() => props.onChoose('occurrence')} data-testid="reschedule-occurrence" autoFocus>
          This occurrence
        </Button>
      </DialogActions>
    </Dialog>
  );
}
