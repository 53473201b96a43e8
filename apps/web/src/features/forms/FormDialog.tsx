import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { FormView } from './FormView.tsx';
import type { FormContext } from './prefill.ts';

/** The submission dialog of the floating Forms button; full screen on phones and on request. */
export function FormDialog(props: { name: string; context?: FormContext; onClose(): void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [full, setFull] = useState(false);
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="md" fullScreen={phone || full} aria-labelledby="form-title">
      <DialogContent>
        <FormView
          name={props.name}
          context={props.context}
          onClose={props.onClose}
          fullScreen={phone || full}
          onToggleFullScreen={phone ? undefined : () => setFull((f) => !f)}
        />
      </DialogContent>
    </Dialog>
  );
}
