import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { isHttpError } from '../lib/http.ts';
import { EmptyState } from './EmptyState.tsx';
import { ErrorState } from './ErrorState.tsx';
import { PageLoader } from './PageLoader.tsx';

interface Loadable {
  isLoading: boolean;
  isError: boolean;
  error: unknown;
  data: unknown;
  refetch: () => unknown;
}

/** Statuses that mean "nothing there for you": the object is missing, hidden, or its id is not one at all. */
const MISSING = new Set([400, 403, 404]);

export const isMissing = (error: unknown) => isHttpError(error) && MISSING.has(error.status);

/**
 * What a page about one object shows until it has that object: a loader, a not-found state (never an empty form
 * or a blank page), or a failed load with a retry. Null once the data is there.
 */
export function loadState(
  query: Loadable,
  notFound: { title: string; description?: string; back?: { to: string; label: string } },
  valid = true,
): ReactNode | null {
  if (valid && query.data !== undefined && query.data !== null) return null;
  if (valid && query.isLoading) return <PageLoader />;
  if (!valid || isMissing(query.error) || (!query.isError && !query.data)) {
    return (
      <EmptyState
        data-testid="not-found-state"
        title={notFound.title}
        description={notFound.description ?? 'It does not exist or you may not see it.'}
        action={
          notFound.back ? (
            <Button component={Link} to={notFound.back.to} variant="outlined">
              {notFound.back.label}
            </Button>
          ) : undefined
        }
      />
    );
  }
  return <ErrorState onRetry={() => void query.refetch()} />;
}
