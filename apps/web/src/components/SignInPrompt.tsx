import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { loginUrl } from '../lib/navigation.ts';
import { getLoginRole } from '../lib/storage.ts';
import { EmptyState } from './EmptyState.tsx';

/** For the few pages without a login check (SPEC 2.1) when nobody is signed in. */
export function SignInPrompt({ text }: { text: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <EmptyState
      data-testid="sign-in-prompt"
      title={text}
      action={
        <Button component={RouterLink} to={loginUrl(getLoginRole(), `${location.pathname}${location.search}`)} variant="contained">
          {t('app.signIn')}
        </Button>
      }
    />
  );
}
