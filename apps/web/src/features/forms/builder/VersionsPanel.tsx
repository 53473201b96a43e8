import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import type { FormTemplate } from '@sitewatch/contracts/forms';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { toast } from '../../../lib/toasts.ts';
import { type FormVersion, useRestoreVersion, useVersions } from '../api.ts';

/** Saved versions, newest first; restoring saves the old content as a new version. */
export function VersionsPanel({ id, current, onRestored }: { id: number; current: number; onRestored(template: FormTemplate): void }) {
  const versions = useVersions(id);
  const restore = useRestoreVersion(id);
  const [asked, setAsked] = useState<FormVersion | null>(null);
  if (versions.isError) return <ErrorState onRetry={() => void versions.refetch()} />;
  if (versions.isPending) return <Skeleton variant="rounded" height={160} />;
  return (
    <>
      <List dense aria-label="Versions" data-testid="versions">
        {versions.data.contents.map((v) => (
          <ListItem
            key={v.version}
            divider
            secondaryAction={
              v.version === current ? null : (
                <Button size="small" onClick={() => setAsked(v)} disabled={restore.isPending}>
                  Restore
                </Button>
              )
            }
          >
            <ListItemText
              primary={`Version ${v.version}${v.version === current ? ' (current)' : ''}: ${v.label}`}
              secondary={`${formatDateTime(v.createdAt)}${v.createdBy ? ` by ${v.createdBy}` : ''} · ${v.fieldCount} fields`}
            />
          </ListItem>
        ))}
      </List>
      {asked ? (
        <ConfirmDialog
          open
          title={`Restore version ${asked.version}?`}
          text="The form goes back to this version, saved as a new version. Responses keep the version they were filled against."
          confirmLabel="Restore"
          busy={restore.isPending}
          onClose={() => setAsked(null)}
          onConfirm={() =>
            restore.mutate(asked.version, {
              onSuccess: (restored) => {
                toast.success('Successfully Updated');
                setAsked(null);
                onRestored(restored);
              },
            })
          }
        />
      ) : null}
    </>
  );
}
