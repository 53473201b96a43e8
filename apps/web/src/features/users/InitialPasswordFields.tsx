import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

export type PasswordMode = 'email' | 'set';

/** How a new account gets its first password: a set-password e-mail, or one typed now by the administrator. */
export function InitialPasswordFields({
  mode,
  password,
  error,
  testIdPrefix,
  onModeChange,
  onPasswordChange,
}: {
  mode: PasswordMode;
  password: string;
  error?: string | undefined;
  /** `user` or `person`: the fields are `${prefix}-password-mode` and `${prefix}-password`. */
  testIdPrefix: string;
  onModeChange: (mode: PasswordMode) => void;
  onPasswordChange: (password: string) => void;
}) {
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <TextField
        select
        label="Password"
        value={mode}
        onChange={(e) => onModeChange(e.target.value as PasswordMode)}
        data-testid={`${testIdPrefix}-password-mode`}
      >
        <MenuItem value="email">Send a set-password e-mail</MenuItem>
        <MenuItem value="set">Set a password now</MenuItem>
      </TextField>
      {mode === 'set' ? (
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => onPasswordChange(e.target.value)}
          error={Boolean(error)}
          helperText={error ?? 'At least 8 characters, not a common password'}
          slotProps={{ htmlInput: { 'data-testid': `${testIdPrefix}-password` } }}
        />
      ) : null}
    </Box>
  );
}
