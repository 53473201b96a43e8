import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { TICKET_TYPE_LABELS, TICKET_TYPES, type TicketType } from '@sitewatch/contracts/helpdesk/tickets';

/** The periods the ticket dashboard and the ticket reports offer (keys of `DATE_PRESETS`). */
export const TICKET_PERIODS = [
  { key: 'last7d', label: 'Last 7 days' },
  { key: 'last30d', label: 'Last 30 days' },
  { key: 'last3m', label: 'Last 3 months' },
  { key: 'last6m', label: 'Last 6 months' },
] as const;
export type TicketPeriod = (typeof TICKET_PERIODS)[number]['key'];

/** A ticket type, or all of them. */
export function TicketTypeField(props: { value: TicketType | 'all'; onChange(type: TicketType | 'all'): void }) {
  return (
    <TextField
      select
      size="small"
      label="Type"
      value={props.value}
      onChange={(e) => props.onChange(e.target.value as TicketType | 'all')}
      sx={{ minWidth: 170 }}
    >
      <MenuItem value="all">All tickets</MenuItem>
      {TICKET_TYPES.map((t) => (
        <MenuItem key={t} value={t}>
          {TICKET_TYPE_LABELS[t]}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The ticket type and the period of the ticket dashboard and of the ticket reports. */
export function TypeAndRangeFields(props: {
  type: TicketType | 'all';
  onType(type: TicketType | 'all'): void;
  range: TicketPeriod;
  onRange(range: TicketPeriod): void;
}) {
  return (
    <>
      <TicketTypeField value={props.type} onChange={props.onType} />
      <TextField
        select
        size="small"
        label="Range"
        value={props.range}
        onChange={(e) => props.onRange(e.target.value as TicketPeriod)}
        sx={{ minWidth: 150 }}
      >
        {TICKET_PERIODS.map((r) => (
          <MenuItem key={r.key} value={r.key}>
            {r.label}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}
