import Chip from '@mui/material/Chip';
import { WARRANTY_SOON_DAYS } from '@sitewatch/contracts/equipment';

/** A warranty end date, marked when it has passed or ends within WARRANTY_SOON_DAYS. */
export function WarrantyChip({ until }: { until: string | null }) {
  if (!until) return <span>—</span>;
  const today = new Date().toISOString().slice(0, 10);
  const soon = new Date(Date.now() + WARRANTY_SOON_DAYS * 86_400_000).toISOString().slice(0, 10);
  if (until < today) return <Chip size="small" color="error" variant="outlined" label={`Expired ${until}`} />;
  if (until <= soon) return <Chip size="small" color="warning" variant="outlined" label={`Ends ${until}`} />;
  return <span>{until}</span>;
}
