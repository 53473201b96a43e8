import { Navigate, useSearchParams } from 'react-router';
import { safeInAppPath } from '../../lib/safe-redirect.ts';

/**
 * /redirect?to=/path (also `next` or `url`): a neutral hop used by links from outside the app (e-mails,
 * notifications). Only in-app paths are followed; anything else lands on Home.
 */
export function RedirectPage() {
  const [params] = useSearchParams();
  const target = params.get('to') ?? params.get('next') ?? params.get('url');
  return <Navigate to={safeInAppPath(target, '/')} replace />;
}
