import Button from '@mui/material/Button';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../lib/toasts.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';

interface Deletable {
  id: string | number;
  name: string;
}

interface DeleteMutation<Id> {
  isPending: boolean;
  mutate(id: Id, options: { onSuccess(): void }): void;
}

export interface DeleteConfirmationOptions<T extends Deletable> {
  mutation: DeleteMutation<T['id']>;
  /** What deleting means for what depends on the row. */
  text: ReactNode | ((row: T) => ReactNode);
  successMessage: string;
}

/**
 * Asks "Delete '{name}'?" before a row goes, then deletes it and toasts. `ask(row)` opens the question; `dialog`
 * renders it.
 */
export function useDeleteConfirmation<T extends Deletable>({ mutation, text, successMessage }: DeleteConfirmationOptions<T>) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const dialog = (
    <ConfirmDialog
      open={deleting !== null}
      title={`Delete '${deleting?.name ?? ''}'?`}
      text={deleting && typeof text === 'function' ? text(deleting) : (text as ReactNode)}
      confirmLabel="Delete"
      destructive
      busy={mutation.isPending}
      onClose={() => setDeleting(null)}
      onConfirm={() =>
        deleting &&
        mutation.mutate(deleting.id, {
          onSuccess: () => {
            toast.success(successMessage);
            setDeleting(null);
          },
        })
      }
    />
  );
  return { ask: setDeleting, dialog };
}

/** The trailing grid column with Edit (a link) and Delete (which asks first). */
export function editDeleteColumn<T extends GridValidRowModel & Deletable>(
  editPath: (row: T) => string,
  onDelete: ((row: T) => void) | undefined,
): GridColDef<T> {
  return {
    field: 'actions',
    headerName: '',
    width: 160,
    sortable: false,
    renderCell: (p) => (
      <>
        <Button size="small" component={Link} to={editPath(p.row)}>
          Edit
        </Button>
        {onDelete && (
          <Button size="small" color="error" onClick={() => onDelete(p.row)}>
            Delete
          </Button>
        )}
      </>
    ),
  };
}
