import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  text?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button for actions that remove or stop something. */
  destructive?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onClose(): void;
  'data-testid'?: string;
}

/** Asks before an action that cannot be undone. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={props.open}
      onClose={props.busy ? undefined : props.onClose}
      aria-labelledby={titleId}
      aria-describedby={props.text ? textId : undefined}
      data-testid={props['data-testid'] ?? 'confirm-dialog'}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      {props.text ? (
        <DialogContent>
          <DialogContentText id={textId}>{props.text}</DialogContentText>
        </DialogContent>
      ) : null}
      <DialogActions>
        <Button onClick={props.onClose} disabled={props.busy}>
          {props.cancelLabel ?? t('app.cancel')}
        </Button>
        <Button
          onClick={props.onConfirm}
          variant="contained"
          color={props.destructive ? 'error' : 'primary'}
          disabled={props.busy}
          startIcon={props.busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="confirm-dialog-confirm"
          autoFocus
        >
          {props.confirmLabel ?? t('app.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
