import Chip from '@mui/material/Chip';
import { PR_STATE_LABELS, type PrState } from '@sitewatch/contracts/purchase-requests';

const STATE_COLORS: Record<PrState, 'default' | 'info' | 'success' | 'error' | 'warning' | 'primary'> = {
  DRAFT: 'default',
  SUBMITTED: 'info',
  APPROVED: 'primary',
  REJECTED: 'error',
  ORDERED: 'warning',
  RECEIVED: 'success',
  CANCELLED: 'default',
};

/** A purchase request's state, coloured by how far it went. */
export function PrStateChip({ state, testId }: { state: PrState; testId?: string }) {
  return <Chip size="small" label={PR_STATE_LABELS[state]} color={STATE_COLORS[state]} data-testid={testId} />;
}
