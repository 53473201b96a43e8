import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FORM_PERMISSIONS } from '@sitewatch/contracts/forms';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorState } from '../../components/ErrorState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { prefetchDraft, useTemplates } from './api.ts';

/** The forms of the tenant with their response counts. */
export function FormsListPage() {
  const canBuild = permissionsOf(useUser()).has(FORM_PERMISSIONS.build);
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSearch(input.trim()), 300);
    return () => clearTimeout(t);
  }, [input]);
  const forms = useTemplates(search ? { search } : {});
  // The form screen's code is fetched and run while the list is read, so that Fill has nothing left to load.
  useEffect(() => {
    const handle = setTimeout(() => void import('./editors.ts').catch(() => undefined), 0);
    return () => clearTimeout(handle);
  }, []);
  return (
    <>
      <PageHeader
        title="Forms"
        subtitle="Fill a form, read its responses, or build a new one"
        actions={
          canBuild ? (
            <Button variant="contained" startIcon={<Add />} component={Link} to="/forms/builder">
              New form
            </Button>
          ) : null
        }
      />
      <TextField
        label="Search forms"
        size="small"
        value={input}
        onChange={(e) => setInput(e.target.value)}
        sx={{ mb: 2, width: { xs: '100%', sm: 320 } }}
      />
      {forms.isError ? <ErrorState onRetry={() => void forms.refetch()} /> : null}
      {forms.isPending ? (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr', lg: '1fr 1fr 1fr' } }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={160} />
          ))}
        </Box>
      ) : forms.data?.contents.length === 0 ? (
        <EmptyState
          title={search ? `No forms match "${search}"` : 'No forms yet'}
          description={canBuild ? 'Build one with New form.' : undefined}
        />
      ) : (
        <Box
          component="ul"
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', md: '1fr 1fr', lg: '1fr 1fr 1fr' },
          }}
        >
          {forms.data?.contents.map((f) => (
            <Card component="li" key={f.id} variant="outlined" data-testid={`form-card-${f.name}`}>
              <CardContent>
                <Typography variant="h6" component="h2">
                  {f.label}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  {f.description || 'No description'}
                </Typography>
                <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                  <Chip
                    size="small"
                    label={`${f.responseCount} response${f.responseCount === 1 ? '' : 's'}`}
                    data-testid="response-count"
                  />
                  <Chip size="small" variant="outlined" label={`Version ${f.version}`} />
                  <Chip size="small" variant="outlined" label={`${f.views.length} screen${f.views.length === 1 ? '' : 's'}`} />
                </Box>
              </CardContent>
              <CardActions sx={{ flexWrap: 'wrap' }}>
                <Button size="small" component={Link} to={`/form/${f.id}/create`} onClick={() => prefetchDraft(f.id)}>
                  Fill
                </Button>
                <Button size="small" component={Link} to={`/forms/${f.id}/view`}>
                  Responses
                </Button>
                {canBuild ? (
                  <Button size="small" component={Link} to={`/forms/builder/${f.id}`}>
                    Edit
                  </Button>
                ) : null}
              </CardActions>
            </Card>
          ))}
        </Box>
      )}
    </>
  );
}
