import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { TICKET_STATUS_LABELS } from '@sitewatch/contracts/helpdesk/tickets';
import { ROLE_LABELS } from '@sitewatch/contracts/roles';
import {
  ACTIVITY_ACTION_LABELS,
  ACTIVITY_OUTCOME_LABELS,
  newPasswordSchema,
  USER_ADMIN_MESSAGES,
  USER_INACTIVITY_DAYS,
  USER_PERMISSIONS,
} from '@sitewatch/contracts/user-admin';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ScrollRegion } from '../../components/ScrollRegion.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { fullName, permissionsOf, useUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toasts.ts';
import { viewPath } from '../helpdesk/tickets/model.ts';
import { useAssignedTickets, useDeleteUser, useResetPassword, useSendSetPassword, useSetActive, useUserDetails } from './api.ts';
import { useDenied } from './RightsGate.tsx';

const LOGIN_METHODS: Record<string, string> = { password: 'Password', otp: 'OTP', totp: 'Authenticator' };

const errorText = (error: unknown, fallback: string) => (isHttpError(error) && detailOf(error.data)) || fallback;

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1, gap: 1 }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

/** /user-details/{id}: a user's profile, sessions, sites and recent activity, with the actions the admin may take. */
export function UserDetailsPage() {
  const id = Number(useParams().id);
  const me = useUser();
  const allowed = permissionsOf(me).has(USER_PERMISSIONS.view);
  const details = useUserDetails(id, allowed && Number.isInteger(id));
  const seesTickets = permissionsOf(me).has('view_ticket');
  const tickets = useAssignedTickets(id, allowed && seesTickets && Number.isInteger(id));
  const setActive = useSetActive(id);
  const remove = useDeleteUser();
  const sendMail = useSendSetPassword(id);
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState<'delete' | 'deactivate' | null>(null);
  const [resetOpen, setResetOpen] = useState(false);

  const denied = useDenied(allowed);
  if (denied) return denied;
  if (details.isLoading) return <PageLoader />;
  if (!details.data) {
    return (
      <EmptyState
        title="User not found"
        description="This user does not exist or was removed."
        action={<Link to="/users">Back to users</Link>}
      />
    );
  }
  const { user, sessions, sites, siteCount, activity, can } = details.data;
  const self = me?.id === user.id;
  const avatar = typeof user.profile.avatar === 'string' ? user.profile.avatar : undefined;

  const toggleActive = (active: boolean) =>
    setActive.mutate(active, {
      onSuccess: () => {
        setConfirm(null);
        showToast('success', active ? USER_ADMIN_MESSAGES.activated : USER_ADMIN_MESSAGES.deactivated);
      },
      onError: (error) => {
        setConfirm(null);
        showToast('error', errorText(error, 'Failed to update user'));
      },
    });

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <PageHeader
        title={
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Avatar src={avatar} alt="">
              {user.firstname.slice(0, 1)}
            </Avatar>
            <span>{fullName(user)}</span>
            {user.isActive ? null : <Chip size="small" color="default" label="Deactivated" />}
            {user.isActive && user.inactive ? (
              <Chip size="small" color="warning" label={`No sign-in for over ${USER_INACTIVITY_DAYS} days`} data-testid="inactive-flag" />
            ) : null}
          </Box>
        }
        actions={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {can.change ? (
              <Button component={Link} to={`/user/${user.id}`} variant="contained">
                Edit
              </Button>
            ) : null}
            {can.change ? <Button onClick={() => setResetOpen(true)}>Reset password</Button> : null}
            {can.change ? (
              <Button
                disabled={sendMail.isPending}
                onClick={() =>
                  sendMail.mutate(undefined, {
                    onSuccess: (r) => showToast('success', r.message),
                    onError: (error) => showToast('error', errorText(error, 'Failed to send the e-mail')),
                  })
                }
              >
                Send set-password e-mail
              </Button>
            ) : null}
            {can.change && !self ? (
              user.isActive ? (
                <Button color="warning" onClick={() => setConfirm('deactivate')}>
                  Deactivate
                </Button>
              ) : (
                <Button onClick={() => toggleActive(true)} disabled={setActive.isPending}>
                  Activate
                </Button>
              )
            ) : null}
            {can.delete ? (
              <Button color="error" onClick={() => setConfirm('delete')}>
                Delete
              </Button>
            ) : null}
          </Box>
        }
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '1fr 1fr' } }}>
        <Section title="Profile">
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
            {[
              ['Username', user.username],
              ['E-mail', user.email],
              ['Mobile', user.mobile ?? '—'],
              ['Roles', user.userRole.map((r) => ROLE_LABELS[r]).join(', ')],
              ['Group', user.groups[0]?.name ?? 'No group'],
              ['Popups', user.notificationConfig.popup ? 'On' : 'Off'],
              ['Created', formatDateTime(user.createdAt)],
              ['Last sign-in', user.lastLoginAt ? formatDateTime(user.lastLoginAt) : 'Never'],
            ].map(([k, v]) => (
              <Box key={k} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {k}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                  {v}
                </Typography>
              </Box>
            ))}
          </Box>
        </Section>
        <Section
          title={`Sites (${siteCount})`}
          action={
            can.change ? (
              <Button size="small" component={Link} to={`/assign-asset?userId=${user.id}`}>
                Assign sites
              </Button>
            ) : null
          }
        >
          {sites.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No sites assigned.
            </Typography>
          ) : (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {sites.map((s) => (
                <Chip key={s.id} size="small" label={s.name} component={Link} to={`/assets/view/${s.id}`} clickable />
              ))}
              {siteCount > sites.length ? <Chip size="small" label={`+${siteCount - sites.length} more`} /> : null}
            </Box>
          )}
        </Section>
      </Box>
      <Section title="Active sessions">
        {sessions.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No active sessions.
          </Typography>
        ) : (
          <ScrollRegion label="Active sessions">
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Signed in</TableCell>
                  <TableCell>Last seen</TableCell>
                  <TableCell>Method</TableCell>
                  <TableCell>From</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {sessions.map((s) => (
                  <TableRow key={s.id}>
                    <TableCell>{formatDateTime(s.createdAt)}</TableCell>
                    <TableCell>{formatDateTime(s.lastSeenAt)}</TableCell>
                    <TableCell>{LOGIN_METHODS[s.loginMethod] ?? s.loginMethod}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{[s.ip, s.userAgent].filter(Boolean).join(' · ')}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ScrollRegion>
        )}
      </Section>
      {seesTickets ? (
        <Section title={`Tickets assigned${tickets.data ? ` (${tickets.data.totalCount})` : ''}`}>
          {tickets.isError ? (
            <Typography variant="body2" color="text.secondary">
              Tickets could not be loaded.
            </Typography>
          ) : !tickets.data?.contents.length ? (
            <Typography variant="body2" color="text.secondary">
              {tickets.isLoading ? 'Loading…' : 'No tickets assigned.'}
            </Typography>
          ) : (
            <ScrollRegion label="Tickets assigned">
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>Ticket</TableCell>
                    <TableCell>Summary</TableCell>
                    <TableCell>Status</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {tickets.data.contents.map((tk) => (
                    <TableRow key={tk.id}>
                      <TableCell>
                        <Link to={viewPath(tk.type, tk.id)}>{tk.ticketId}</Link>
                      </TableCell>
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>{tk.title}</TableCell>
                      <TableCell>{TICKET_STATUS_LABELS[tk.status] ?? tk.status}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </ScrollRegion>
          )}
        </Section>
      ) : null}
      <Section title="Recent activity">
        {activity.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No activity recorded yet.
          </Typography>
        ) : (
          <ScrollRegion label="Recent activity">
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>When</TableCell>
                  <TableCell>Action</TableCell>
                  <TableCell>Outcome</TableCell>
                  <TableCell>From</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {activity.map((a) => (
                  <TableRow key={a.id}>
                    <TableCell>{formatDateTime(a.createdAt)}</TableCell>
                    <TableCell>{ACTIVITY_ACTION_LABELS[a.action] ?? a.action}</TableCell>
                    <TableCell>{ACTIVITY_OUTCOME_LABELS[a.outcome] ?? a.outcome}</TableCell>
                    <TableCell>{a.ip ?? ''}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ScrollRegion>
        )}
      </Section>
      <ConfirmDialog
        open={confirm === 'deactivate'}
        title="Deactivate this user?"
        text={`${fullName(user)} is signed out everywhere and cannot sign in until activated again.`}
        confirmLabel="Deactivate"
        destructive
        busy={setActive.isPending}
        onConfirm={() => toggleActive(false)}
        onClose={() => setConfirm(null)}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        title="Delete this user?"
        text={`${fullName(user)} and their site assignments are removed for good.`}
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(user.id, {
            onSuccess: () => {
              showToast('success', USER_ADMIN_MESSAGES.deleted);
              navigate('/users');
            },
            onError: (error) => {
              setConfirm(null);
              showToast('error', errorText(error, 'Failed to delete user'));
            },
          })
        }
        onClose={() => setConfirm(null)}
      />
      {resetOpen ? <ResetPasswordDialog userId={user.id} onClose={() => setResetOpen(false)} /> : null}
    </Box>
  );
}

function ResetPasswordDialog({ userId, onClose }: { userId: number; onClose(): void }) {
  const reset = useResetPassword(userId);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const parsed = newPasswordSchema.safeParse(password);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid password');
      return;
    }
    reset.mutate(password, {
      onSuccess: (r) => {
        showToast('success', r.message);
        onClose();
      },
      onError: (e) => setError(errorText(e, 'Failed to reset the password')),
    });
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Reset password</DialogTitle>
      <DialogContent>
        {error ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        ) : null}
        <TextField
          autoFocus
          fullWidth
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && submit()}
          helperText="The user is signed out everywhere."
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={reset.isPending}>
          Reset
        </Button>
      </DialogActions>
    </Dialog>
  );
}
