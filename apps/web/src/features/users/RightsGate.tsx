import { Navigate } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useRightsChecked } from '../profile/api.ts';

/**
 * What a screen shows instead of itself when the user's rights refuse it: a loader until the rights were read afresh
 * (a group change may have just granted them), then the access-denied page. Null when the screen may show.
 */
export function useDenied(allowed: boolean) {
  const checked = useRightsChecked();
  if (allowed) return null;
  return checked ? <Navigate to="/access-denied" replace /> : <PageLoader />;
}
