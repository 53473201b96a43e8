import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  DEFAULT_TREE_NAVIGATION,
  DEVICE_TYPE_LABELS,
  DEVICE_TYPES,
  type DeviceType,
  TREE_NAVIGATION_MAX_ENTRIES,
  type TreeNavigationEntry,
  type TreeNavigationNodeType,
} from '@sitewatch/contracts/devices';

const ANY = '';

/**
 * SPEC 2.13: the asset tree's right-click navigation entries, by node type (site or device) and device type. The
 * address may use {assetId} and {deviceId}; the Edit, Add Device, Site Dashboard and View Device entries are fixed.
 */
export function TreeNavigationSection(props: {
  entries: TreeNavigationEntry[];
  onChange(entries: TreeNavigationEntry[]): void;
  issues: Record<string, string>;
  showIssues: boolean;
  siteAlias: string;
}) {
  const { entries, onChange, issues, showIssues } = props;
  const update = (index: number, patch: Partial<TreeNavigationEntry>) =>
    onChange(entries.map((e, i) => (i === index ? withoutEmptyType({ ...e, ...patch }) : e)));
  const issue = (index: number, field: string) => (showIssues ? issues[`${index}.${field}`] : undefined);
  return (
    <Stack spacing={1.5} data-testid="settings-tree-navigation">
      {entries.map((entry, index) => (
        <Box
          // Rows have no identity of their own: they are edited in place and removed by position.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={index}
          data-testid="tree-navigation-row"
          sx={{ display: 'grid', gap: 1, alignItems: 'start', gridTemplateColumns: { xs: '1fr', md: '110px 150px 1fr 1.4fr 40px' } }}
        >
          <TextField
            select
            size="small"
            label="Node"
            value={entry.nodeType}
            onChange={(e) => update(index, { nodeType: e.target.value as TreeNavigationNodeType })}
            slotProps={{ htmlInput: { 'data-testid': 'tree-navigation-node' } }}
          >
            <MenuItem value="asset">{props.siteAlias}</MenuItem>
            <MenuItem value="device">Device</MenuItem>
          </TextField>
          <TextField
            select
            size="small"
            label="Device type"
            value={entry.nodeType === 'device' ? (entry.deviceType ?? ANY) : ANY}
            disabled={entry.nodeType !== 'device'}
            onChange={(e) => update(index, { deviceType: (e.target.value || undefined) as DeviceType | undefined })}
            error={Boolean(issue(index, 'deviceType'))}
            helperText={issue(index, 'deviceType')}
          >
            <MenuItem value={ANY}>Any</MenuItem>
            {DEVICE_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {DEVICE_TYPE_LABELS[type]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label="Label"
            value={entry.label}
            onChange={(e) => update(index, { label: e.target.value })}
            error={Boolean(issue(index, 'label'))}
            helperText={issue(index, 'label')}
            slotProps={{ htmlInput: { maxLength: 60, 'data-testid': 'tree-navigation-label' } }}
          />
          <TextField
            size="small"
            label="Address"
            placeholder="/genset/view/{assetId}/{deviceId}"
            value={entry.to}
            onChange={(e) => update(index, { to: e.target.value })}
            error={Boolean(issue(index, 'to'))}
            helperText={issue(index, 'to')}
            slotProps={{ htmlInput: { maxLength: 300, 'data-testid': 'tree-navigation-to' } }}
          />
          <IconButton aria-label={`Remove ${entry.label || 'entry'}`} onClick={() => onChange(entries.filter((_e, i) => i !== index))}>
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Box>
      ))}
      {showIssues && issues.list ? <FormHelperText error>{issues.list}</FormHelperText> : null}
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button
          onClick={() => onChange([...entries, { nodeType: 'device', label: '', to: '/' }])}
          disabled={entries.length >= TREE_NAVIGATION_MAX_ENTRIES}
          data-testid="tree-navigation-add"
        >
          Add entry
        </Button>
        <Button onClick={() => onChange(DEFAULT_TREE_NAVIGATION.map((e) => ({ ...e })))}>Restore defaults</Button>
      </Box>
      <FormHelperText>
        Addresses may use {'{assetId}'} and {'{deviceId}'} of the node right-clicked.
      </FormHelperText>
    </Stack>
  );
}

/** A site entry has no device type; "Any" is no device type. */
function withoutEmptyType(entry: TreeNavigationEntry): TreeNavigationEntry {
  const { deviceType, ...rest } = entry;
  return entry.nodeType === 'device' && deviceType ? { ...rest, deviceType } : rest;
}
