import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { TRAP_LIMITS, TRAP_MESSAGES } from '@sitewatch/contracts/snmp';
import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';

interface Props {
  title: string;
  /** `destination` gives the form `destination-form`, its name `destination-name` and its button `destination-save`. */
  testId: string;
  form: Pick<TrapForm, 'dialog' | 'text'>;
  /** The label of the name field (every trap forwarding object is named). */
  nameLabel?: string;
  onSubmit(): void;
  /** The fields after the name. */
  children: ReactNode;
}

/** The dialog of the trap forwarding forms: title, the form's error, name, the fields, Enabled, Cancel and Save. */
export function TrapFormDialog(props: Props) {
  const form = props.form.dialog;
  const fullScreen = useMediaQuery('(max-width:600px)');
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    props.onSubmit();
  };
  return (
    <Dialog open onClose={form.onClose} fullWidth maxWidth="sm" fullScreen={fullScreen}>
      <form onSubmit={submit} noValidate data-testid={`${props.testId}-form`}>
        <DialogTitle>{props.title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {form.error ? <Alert severity="error">{form.error}</Alert> : null}
            <TextField
              label={props.nameLabel ?? 'Name'}
              required
              size="small"
              {...props.form.text('name')}
              slotProps={{ htmlInput: { maxLength: TRAP_LIMITS.name, 'data-testid': `${props.testId}-name` } }}
            />
            {props.children}
            <FormControlLabel
              control={<Switch checked={form.enabled} onChange={(e) => form.onEnabled(e.target.checked)} />}
              label="Enabled"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={form.onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={form.saving} data-testid={`${props.testId}-save`}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/**
 * The state of a trap forwarding form: its values, the errors per field (`form`: the server's refusal), and `submit`,
 * which shows the errors found or saves the input, then says so and closes.
 */
export function useTrapForm<V extends { name: string; enabled: boolean }, I>(
  initial: V,
  save: UseMutationResult<unknown, Error, I>,
  opts: { editing: boolean; onClose(): void },
) {
  const [v, setV] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const set = (key: keyof V) => (ev: { target: { value: string } }) => setV((o) => ({ ...o, [key]: ev.target.value }));
  return {
    v,
    setV,
    set,
    errors,
    /** A text field's value, change handler and error. */
    text: (key: keyof V & string) => ({
      value: String(v[key] ?? ''),
      onChange: set(key),
      error: Boolean(errors[key]),
      helperText: errors[key],
    }),
    submit(found: Partial<Record<string, string>>, input: () => I) {
      setErrors(found);
      if (Object.keys(found).length > 0) return;
      save.mutate(input(), {
        onSuccess: () => {
          toast.success(opts.editing ? TRAP_MESSAGES.updated : TRAP_MESSAGES.created);
          opts.onClose();
        },
        onError: (error) => setErrors({ form: isHttpError(error) ? (error.detail ?? error.message) : 'Not saved. Try again.' }),
      });
    },
    /** What TrapFormDialog takes of the form. */
    dialog: {
      error: errors.form,
      saving: save.isPending,
      enabled: v.enabled,
      onEnabled: (enabled: boolean) => setV((o) => ({ ...o, enabled })),
      onClose: opts.onClose,
    },
  };
}
type TrapForm = ReturnType<typeof useTrapForm<{ name: string; enabled: boolean }, unknown>>;
