import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FORM_LIMITS } from '@sitewatch/contracts/forms';
import { screenPaths } from '../../../lib/screen-catalog.ts';
import type { BuilderState } from './model.ts';

export function SettingsPanel({
  state,
  onChange,
  nameLocked,
}: {
  state: BuilderState;
  onChange(s: BuilderState): void;
  nameLocked: boolean;
}) {
  const fieldsOf = (type: string) => Object.entries(state.properties).filter(([, f]) => type === '*' || f.type === type);
  const low = state.actions.lowRating;
  const open = state.actions.openTicket;
  const pick = (
    label: string,
    value: string | undefined,
    options: Array<[string, { label?: string }]>,
    set: (v: string | undefined) => void,
  ) => (
    <TextField
      select
      label={label}
      size="small"
      fullWidth
      value={value ?? ''}
      onChange={(e) => set(e.target.value || undefined)}
      sx={{ mb: 1.5 }}
    >
      <MenuItem value="">None</MenuItem>
      {options.map(([k, f]) => (
        <MenuItem key={k} value={k}>
          {f.label || k}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <Box sx={{ maxWidth: 640 }} data-testid="form-settings">
      <TextField
        label="Name"
        required
        size="small"
        fullWidth
        disabled={nameLocked}
        helperText="Used to open the form by name (submit_form=...)"
        value={state.name}
        onChange={(e) => onChange({ ...state, name: e.target.value })}
        sx={{ mb: 1.5 }}
      />
      <TextField
        label="Title"
        required
        size="small"
        fullWidth
        value={state.label}
        onChange={(e) => onChange({ ...state, label: e.target.value })}
        sx={{ mb: 1.5 }}
      />
      <TextField
        label="Description"
        size="small"
        fullWidth
        multiline
        value={state.description}
        onChange={(e) => onChange({ ...state, description: e.target.value })}
        sx={{ mb: 1.5 }}
      />
      <TextField
        label="Icon"
        size="small"
        fullWidth
        value={state.icon}
        onChange={(e) => onChange({ ...state, icon: e.target.value })}
        sx={{ mb: 1.5 }}
      />
      <Autocomplete
        multiple
        freeSolo
        options={screenPaths()}
        value={state.views}
        onChange={(_e, views) => onChange({ ...state, views: views.map((v) => (v.startsWith('/') ? v : `/${v}`)) })}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Show on screens"
            size="small"
            helperText="The floating Forms button offers the form on these screens"
          />
        )}
        sx={{ mb: 1.5 }}
      />
      <FormControlLabel
        control={<Switch checked={state.hideCancel} onChange={(e) => onChange({ ...state, hideCancel: e.target.checked })} />}
        label="Hide the Cancel button"
      />
      <Typography variant="subtitle2" sx={{ mt: 2, mb: 1 }}>
        When a response is submitted
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={Boolean(low?.enabled)}
            onChange={(e) => onChange({ ...state, actions: { ...state.actions, lowRating: { ...low, enabled: e.target.checked } } })}
          />
        }
        label={`Raise a ticket for a rating below ${low?.threshold ?? FORM_LIMITS.ratingThreshold}`}
      />
      {low?.enabled ? (
        <Box sx={{ display: 'flex', gap: 1, mt: 1 }}>
          {pick('Rating field', low.field, fieldsOf('rating'), (field) =>
            onChange({ ...state, actions: { ...state.actions, lowRating: { ...low, field } } }),
          )}
          <TextField
            label="Threshold"
            type="number"
            size="small"
            value={low.threshold ?? FORM_LIMITS.ratingThreshold}
            onChange={(e) =>
              onChange({
                ...state,
                actions: { ...state.actions, lowRating: { ...low, threshold: Math.max(1, Math.min(10, Number(e.target.value) || 3)) } },
              })
            }
            sx={{ width: 120 }}
          />
        </Box>
      ) : null}
      <FormControlLabel
        control={
          <Switch
            checked={Boolean(open?.enabled)}
            onChange={(e) =>
              onChange({ ...state, actions: { ...state.actions, openTicket: { type: 'TICKET', ...open, enabled: e.target.checked } } })
            }
          />
        }
        label="Open a ticket or work order"
        sx={{ display: 'flex' }}
      />
      {open?.enabled ? (
        <Box sx={{ mt: 1 }}>
          <TextField
            select
            label="Open a"
            size="small"
            fullWidth
            value={open.type}
            onChange={(e) =>
              onChange({ ...state, actions: { ...state.actions, openTicket: { ...open, type: e.target.value as 'TICKET' } } })
            }
            sx={{ mb: 1.5 }}
          >
            <MenuItem value="TICKET">Ticket</MenuItem>
            <MenuItem value="WORKORDERTICKET">Work order</MenuItem>
          </TextField>
          {pick('Title from', open.titleField, fieldsOf('string'), (titleField) =>
            onChange({ ...state, actions: { ...state.actions, openTicket: { ...open, titleField } } }),
          )}
          {pick('Description from', open.descriptionField, fieldsOf('string'), (descriptionField) =>
            onChange({ ...state, actions: { ...state.actions, openTicket: { ...open, descriptionField } } }),
          )}
          {pick('Site from', open.assetField, fieldsOf('assetApiSelect'), (assetField) =>
            onChange({ ...state, actions: { ...state.actions, openTicket: { ...open, assetField } } }),
          )}
          {pick('Device from', open.deviceField, fieldsOf('deviceApiSelect'), (deviceField) =>
            onChange({ ...state, actions: { ...state.actions, openTicket: { ...open, deviceField } } }),
          )}
        </Box>
      ) : null}
    </Box>
  );
}
