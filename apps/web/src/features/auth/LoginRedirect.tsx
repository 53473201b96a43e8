import { Navigate, useLocation } from 'react-router';
import { getLoginRole } from '../../lib/storage.ts';

/** /login (where SPEC 8.1 sends a 502): the login page of the stored login role. */
export function LoginRedirect() {
  const location = useLocation();
  return <Navigate to={`/${getLoginRole()}/login/${location.search}`} replace />;
}
