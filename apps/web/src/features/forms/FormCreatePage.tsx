import Paper from '@mui/material/Paper';
import { useNavigate, useParams } from 'react-router';
import { FormView } from './FormView.tsx';

/** form/{id}/create: the form screen as a page. */
export function FormCreatePage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, maxWidth: 900, mx: 'auto' }}>
      <FormView id={Number.isInteger(id) && id > 0 ? id : -1} onClose={() => navigate('/forms')} />
    </Paper>
  );
}
