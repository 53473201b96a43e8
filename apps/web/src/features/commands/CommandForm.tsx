import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { COMMAND_LIMITS, COMMAND_MESSAGES } from '@sitewatch/contracts/commands';
import { useState } from 'react';

/** What a command form produces (the request without its target). */
export interface CommandOptions {
  method: string;
  params: unknown;
  oneway: boolean;
  timeoutMs: number;
  expiresInMs: number;
}

/** Methods the demo fleet answers, offered per device type (any other method name may be typed). */
export const METHODS_BY_TYPE: Record<string, string[]> = {
  GENERATOR: ['startGenset', 'stopGenset', 'setAuto'],
  ROUTER: ['reboot'],
  ACCESSCONTROL: ['openDoor'],
  ETH: ['setOutput', 'setRelay'],
  RELAY: ['setRelay'],
};
const COMMON_METHODS = ['ping', 'getState'];
const EXAMPLE_PARAMS: Record<string, string> = {
  setRelay: '{ "on": true }',
  openDoor: '{ "door": 1 }',
  setOutput: '{ "output": 1, "on": true }',
};
const EXPIRY_OPTIONS = [
  { label: '1 hour', ms: 3_600_000 },
  { label: '1 day', ms: 86_400_000 },
  { label: '7 days', ms: 7 * 86_400_000 },
];
const METHOD_PATTERN = /^[A-Za-z0-9_.:/-]+$/;
const encoder = new TextEncoder();

/** Checks the form as the server would; returns the options or the messages per field. */
export function readCommandForm(v: {
  method: string;
  params: string;
  timeoutSeconds: string;
}):
  | { ok: true; method: string; params: unknown; timeoutMs: number }
  | { ok: false; errors: Partial<Record<'method' | 'params' | 'timeout', string>> } {
  const errors: Partial<Record<'method' | 'params' | 'timeout', string>> = {};
  const method = v.method.trim();
  if (!method) errors.method = COMMAND_MESSAGES.methodRequired;
  else if (method.length > COMMAND_LIMITS.method) errors.method = `Please use maximum ${COMMAND_LIMITS.method} characters`;
  else if (!METHOD_PATTERN.test(method)) errors.method = COMMAND_MESSAGES.methodFormat;
  let params: unknown = null;
  if (v.params.trim()) {
    try {
      params = JSON.parse(v.params);
      if (encoder.encode(JSON.stringify(params)).length > COMMAND_LIMITS.paramsBytes) errors.params = COMMAND_MESSAGES.paramsTooLarge;
    } catch {
      errors.params = COMMAND_MESSAGES.paramsInvalid;
    }
  }
  const seconds = Number(v.timeoutSeconds);
  const min = COMMAND_LIMITS.timeoutMsMin / 1000;
  const max = COMMAND_LIMITS.timeoutMsMax / 1000;
  if (!Number.isInteger(seconds) || seconds < min || seconds > max) errors.timeout = `Timeout must be ${min} to ${max} seconds`;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, method, params, timeoutMs: seconds * 1000 };
}

/** Method, JSON params, one-way or two-way, timeout and expiry; `submitLabel` names the action. */
export function CommandForm(props: {
  deviceType?: string;
  submitLabel: string;
  busy?: boolean;
  disabled?: boolean;
  error?: string;
  onSubmit(options: CommandOptions): void;
}) {
  const suggestions = [
    ...(props.deviceType ? (METHODS_BY_TYPE[props.deviceType] ?? ['setRelay']) : Object.values(METHODS_BY_TYPE).flat()),
    ...COMMON_METHODS,
  ];
  const [method, setMethod] = useState('');
  const [params, setParams] = useState('');
  const [oneway, setOneway] = useState(false);
  const [timeoutSeconds, setTimeoutSeconds] = useState(String(COMMAND_LIMITS.timeoutMsDefault / 1000));
  const [expiresInMs, setExpiresInMs] = useState<number>(COMMAND_LIMITS.expiryMsDefault);
  const [errors, setErrors] = useState<Partial<Record<'method' | 'params' | 'timeout', string>>>({});
  const listId = `command-methods-${props.deviceType ?? 'any'}`;

  const submit = () => {
    const read = readCommandForm({ method, params, timeoutSeconds });
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    props.onSubmit({ method: read.method, params: read.params, oneway, timeoutMs: read.timeoutMs, expiresInMs });
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
      data-testid="command-form"
    >
      <TextField
        label="Method"
        size="small"
        required
        value={method}
        onChange={(e) => {
          setMethod(e.target.value);
          if (!params && EXAMPLE_PARAMS[e.target.value]) setParams(EXAMPLE_PARAMS[e.target.value] as string);
        }}
        error={Boolean(errors.method)}
        helperText={errors.method ?? `For example ${suggestions.slice(0, 3).join(', ')}`}
        slotProps={{ htmlInput: { list: listId, maxLength: COMMAND_LIMITS.method, 'data-testid': 'command-method' } }}
      />
      <datalist id={listId}>
        {suggestions.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <TextField
        label="Timeout (seconds)"
        size="small"
        type="number"
        value={timeoutSeconds}
        onChange={(e) => setTimeoutSeconds(e.target.value)}
        error={Boolean(errors.timeout)}
        helperText={errors.timeout ?? (oneway ? 'Time to acknowledge' : 'Time to reply once sent')}
        slotProps={{ htmlInput: { min: 1, max: 600, 'data-testid': 'command-timeout' } }}
      />
      <TextField
        label="Params (JSON)"
        size="small"
        multiline
        minRows={2}
        value={params}
        onChange={(e) => setParams(e.target.value)}
        error={Boolean(errors.params)}
        helperText={errors.params ?? 'Optional, for example { "on": true }'}
        sx={{ gridColumn: { sm: '1 / -1' } }}
        slotProps={{ htmlInput: { 'data-testid': 'command-params', spellCheck: false, style: { fontFamily: 'monospace' } } }}
      />
      <TextField
        select
        label="Wait for an offline device"
        size="small"
        value={expiresInMs}
        onChange={(e) => setExpiresInMs(Number(e.target.value))}
      >
        {EXPIRY_OPTIONS.map((o) => (
          <MenuItem key={o.ms} value={o.ms}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel
        control={
          <Switch checked={oneway} onChange={(e) => setOneway(e.target.checked)} slotProps={{ input: { 'aria-label': 'One-way' } }} />
        }
        label={oneway ? 'One-way (no reply)' : 'Two-way (wait for the reply)'}
      />
      {props.error ? (
        <Box sx={{ gridColumn: '1 / -1', color: 'error.main', typography: 'body2' }} role="alert">
          {props.error}
        </Box>
      ) : null}
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Button type="submit" variant="contained" disabled={props.busy || props.disabled} data-testid="command-send">
          {props.submitLabel}
        </Button>
      </Box>
    </Box>
  );
}
