import { LOGIN_MESSAGES } from '@sitewatch/contracts/messages';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { safeInAppPath } from '../../lib/safe-redirect.ts';
import { logoutForRoleMismatch, saveLogin, violatesLoginRole } from '../../lib/session.ts';
import { setLoginRole } from '../../lib/storage.ts';
import { toast } from '../../lib/toasts.ts';
import type { SignedIn } from './api.ts';

/**
 * After either sign-in method (and the second factor): SPEC 5 role check, store user and tokens, toast
 * 'Login Successful', go to `next` if it stays in the app, else Home.
 */
export function useCompleteLogin(role: string, next: string | null) {
  const navigate = useNavigate();
  return useCallback(
    async (result: SignedIn): Promise<string | null> => {
      if (violatesLoginRole(result.user, role)) {
        await logoutForRoleMismatch();
        navigate('/auth/login/', { replace: true });
        return LOGIN_MESSAGES.unauthorized;
      }
      // the role of the page signed in at, even if a refused attempt on it had put the stored role back to auth
      setLoginRole(role);
      saveLogin(result);
      toast.success(LOGIN_MESSAGES.loginSuccessful);
      navigate(safeInAppPath(next, '/'), { replace: true });
      return null;
    },
    [navigate, next, role],
  );
}
