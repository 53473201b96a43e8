import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** Label with the required asterisk, the additionalInfo tooltip (SPEC 2.10), the description and the error. */
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
  return (
    <Box sx={{ mb: 2 }} data-testid={`field-${id}`}>
      {ownLabel ? null : (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 0.5 }}>
          <Typography component="label" id={`${id}-label`} htmlFor={id} variant="body2" sx={{ fontWeight: 600 }}>
            {label}
            {required ? (
              <Box component="span" aria-hidden sx={{ color: 'error.main', ml: 0.25 }}>
                *
              </Box>
            ) : null}
          </Typography>
          {additionalInfo ? <InfoTip text={additionalInfo} /> : null}
        </Box>
      )}
      {children}
      {ownLabel && additionalInfo ? <InfoTip text={additionalInfo} /> : null}
      {description ? <FormHelperText sx={{ mt: 0.5 }}>{description}</FormHelperText> : null}
      {error ? (
        <FormHelperText error role="alert" id={`${id}-error`}>
          {error}
        </FormHelperText>
      ) : null}
    </Box>
  );
}

export function InfoTip({ text }: { text: string }) {
  return (
    <Tooltip title={text} enterTouchDelay={0}>
      <IconButton size="small" aria-label={`More information: ${text}`} sx={{ p: 0.25 }}>
        <InfoOutlined fontSize="inherit" />
      </IconButton>
    </Tooltip>
  );
}
