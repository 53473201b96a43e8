import Chip from '@mui/material/Chip';
import { COMMAND_STATE_LABELS, type CommandState } from '@sitewatch/contracts/commands';

const COLOURS: Record<CommandState, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  sent: 'info',
  delivered: 'info',
  successful: 'success',
  timeout: 'warning',
  failed: 'error',
  expired: 'warning',
};

export function StateChip({ state }: { state: CommandState }) {
  return <Chip size="small" variant="outlined" color={COLOURS[state]} label={COMMAND_STATE_LABELS[state]} data-testid={`state-${state}`} />;
}

/** A reply or error as one short line (the full JSON in the title). */
export function ReplyText({ response, error }: { response: unknown; error: string | null }) {
  if (error) return <span title={error}>{error}</span>;
  if (response === null || response === undefined) return <span>—</span>;
  const text = typeof response === 'string' ? response : JSON.stringify(response);
  return (
    <span title={text} style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
      {text.length > 120 ? `${text.slice(0, 120)}…` : text}
    </span>
  );
}
