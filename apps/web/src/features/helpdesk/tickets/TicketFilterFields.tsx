import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { TICKET_TYPE_LABELS, TICKET_TYPES, type TicketType } from '@sitewatch/contracts/helpdesk/tickets';
import { DATE_PRESETS } from './model';

/** The periods the ticket dashboard and the ticket reports offer: the list's presets but the last 24 hours. */
export const TICKET_PERIODS = DATE_PRESETS.filter(
  (p): p is Exclude<(typeof DATE_PRESETS)[number], { key: 'last24h' }> => p.key !== 'last24h',
);
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
