import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { DashboardConfig } from '@sitewatch/contracts/dashboards';
import { ROLE_LABELS, ROLES, type Role } from '@sitewatch/contracts/roles';
import { useDashboardAudience } from '../api.ts';

type Audience = Pick<DashboardConfig['settings'], 'roles' | 'groups'>;

const EVERYONE = 'Everyone who may view dashboards';
/** A multiple select hands back an array, or a comma-joined string after browser autofill. */
const listOf = (value: unknown): string[] => (typeof value === 'string' ? value.split(',').filter(Boolean) : (value as string[]));

/**
 * Whom a dashboard in the navigation or on the home page is for: users of any chosen role or group (none chosen:
 * everyone who may view dashboards).
 */
export function AudienceFields({ settings, onChange }: { settings: Audience; onChange: (audience: Partial<Audience>) => void }) {
  const audience = useDashboardAudience();
  const groups = audience.data?.groups ?? [];
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  const nobodyChosen = settings.roles.length === 0 && settings.groups.length === 0;
  return (
    <>
      <TextField
        select
        size="small"
        label="For roles"
        sx={{ minWidth: 220, maxWidth: '100%' }}
        value={settings.roles}
        onChange={(e) => onChange({ roles: listOf(e.target.value) })}
        slotProps={{
          select: {
            multiple: true,
            displayEmpty: true,
            renderValue: (v) =>
              (v as string[]).length === 0
                ? nobodyChosen
                  ? EVERYONE
                  : 'No role'
                : (v as Role[]).map((r) => ROLE_LABELS[r] ?? r).join(', '),
          },
          inputLabel: { shrink: true },
          htmlInput: { 'data-testid': 'dashboard-audience' },
        }}
      >
        {ROLES.map((r) => (
          <MenuItem key={r} value={r}>
            {ROLE_LABELS[r]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="For groups"
        sx={{ minWidth: 220, maxWidth: '100%' }}
        value={settings.groups}
        disabled={audience.isError}
        helperText={audience.isError ? 'The groups could not be loaded' : undefined}
        onChange={(e) => onChange({ groups: listOf(e.target.value).map(Number) })}
        slotProps={{
          select: {
            multiple: true,
            displayEmpty: true,
            renderValue: (v) =>
              (v as number[]).length === 0
                ? nobodyChosen
                  ? EVERYONE
                  : 'No group'
                : (v as number[]).map((id) => groupName.get(id) ?? `Group ${id}`).join(', '),
          },
          inputLabel: { shrink: true },
          htmlInput: { 'data-testid': 'dashboard-audience-groups' },
        }}
      >
        {groups.length === 0 ? (
          <MenuItem disabled value="">
            {audience.isPending ? 'Loading groups…' : 'No groups yet'}
          </MenuItem>
        ) : (
          groups.map((g) => (
            <MenuItem key={g.id} value={g.id}>
              {g.name}
            </MenuItem>
          ))
        )}
      </TextField>
    </>
  );
}
