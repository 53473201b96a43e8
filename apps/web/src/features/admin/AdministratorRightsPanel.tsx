import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { type AdministratorRightsRestored, GROUP_MESSAGES } from '@sitewatch/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';
import { useRestoreAdministratorRights } from './api.ts';

/**
 * /app-admin?tab=rights: gives the groups of the customer's administrators every permission again, the way back when
 * rights were taken from them that nobody else could give.
 */
export function AdministratorRightsPanel() {
  const { t } = useTranslation();
  const restore = useRestoreAdministratorRights();
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<AdministratorRightsRestored | null>(null);

  const handleRestore = () =>
    restore.mutate(undefined, {
      onSuccess: (answer) => {
        setAsking(false);
        setResult(answer);
        toast.success(GROUP_MESSAGES.restored);
      },
      onError: (failure) => {
        setAsking(false);
        toast.error((isHttpError(failure) && detailOf(failure.data)) || t('errors.loadFailed'));
      },
    });

  return (
    <Box data-testid="administrator-rights-panel" sx={{ maxWidth: 720 }}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('admin.rightsIntro')}
      </Typography>
      <Button
        variant="contained"
        startIcon={<AdminPanelSettingsOutlined />}
        onClick={() => setAsking(true)}
        disabled={restore.isPending}
        data-testid="restore-admin-rights"
      >
        {t('admin.rightsRestore')}
      </Button>
      {result && (
        <Alert severity="success" sx={{ mt: 2 }} data-testid="restore-admin-rights-result">
          {result.groups.length === 0
            ? t('admin.rightsNoGroup')
            : result.groups
                .map((g) =>
                  g.added.length
                    ? t('admin.rightsAdded', { name: g.name, count: g.added.length })
                    : t('admin.rightsComplete', { name: g.name }),
                )
                .join(' ')}
        </Alert>
      )}
      <ConfirmDialog
        open={asking}
        title={t('admin.rightsConfirmTitle')}
        text={t('admin.rightsConfirmText')}
        confirmLabel={t('admin.rightsRestore')}
        busy={restore.isPending}
        onConfirm={handleRestore}
        onClose={() => setAsking(false)}
        data-testid="restore-admin-rights-dialog"
      />
    </Box>
  );
}
