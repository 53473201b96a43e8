import InfoOutlined from '@mui/icons-material/InfoOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { FormEvent, ReactNode } from 'react';

/**
 * Label with the required asterisk, the additionalInfo tooltip (SPEC 2.10), the description and the error; plain
 * elements styled by class (skin.tsx), as MUI's Typography and FormHelperText draw them.
 */
export function FieldShell(props: {
  id: string;
  label: string;
  required: boolean;
  additionalInfo?: string;
  description?: string;
  error?: string;
  children: ReactNode;
  /** Text inputs carry their own label. */
  ownLabel?: boolean;
}) {
  const { id, label, required, additionalInfo, description, error, children, ownLabel } = props;
  // Each field is a form of its own: on every key press the browser's autofill re-reads the whole form the input
  // belongs to (some 5 ms of forced layouts per key in a 200-field form); its own form keeps that to its controls.
  // Enter in a field submits nothing; the form screen's Submit button does.
  return (
    <form className="dfs-field" data-testid={`field-${id}`} noValidate onSubmit={preventSubmit}>
      {ownLabel ? null : (
        <div className="dfs-head">
          <label className="dfs-label" id={`${id}-label`} htmlFor={id}>
            {label}
            {required ? (
              <span aria-hidden className="dfs-required">
                *
              </span>
            ) : null}
          </label>
          {additionalInfo ? <InfoTip text={additionalInfo} /> : null}
        </div>
      )}
      {children}
      {ownLabel && additionalInfo ? <InfoTip text={additionalInfo} /> : null}
      {description ? <p className="dfs-help">{description}</p> : null}
      {error ? (
        <p className="dfs-error" role="alert" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </form>
  );
}

const preventSubmit = (event: FormEvent) => event.preventDefault();

export function InfoTip({ text }: { text: string }) {
  return (
    <Tooltip title={text} enterTouchDelay={0}>
      <IconButton size="small" aria-label={`More information: ${text}`} sx={{ p: 0.25 }}>
        <InfoOutlined fontSize="inherit" />
      </IconButton>
    </Tooltip>
  );
}
