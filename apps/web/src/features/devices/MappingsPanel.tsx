import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type EntityKind, RELATION_ENDS, RELATION_TYPES, type RelationType } from '@sitewatch/contracts/devices';
import { ASSET_TREE } from '@sitewatch/contracts/sites';
import { useState } from 'react';
import { Link } from 'react-router';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { showToast } from '../../lib/toasts.ts';
import { DevicePicker, type Option, SitePicker } from '../sites/Pickers.tsx';
import { useDeleteMapping, useMappings, useSaveMapping } from './api.ts';
import { Section } from './components.tsx';

const linkOf = (kind: EntityKind, id: number) => (kind === 'ASSET' ? `/assets/view/${id}` : `/devices/${id}/view`);

/** The entity mappings from a site or device (SPEC 7: fetched 50 at a time), with add and remove. */
export function MappingsPanel({ fromType, fromEntity, canEdit }: { fromType: EntityKind; fromEntity: number; canEdit: boolean }) {
  const mappings = useMappings({ fromType, fromEntity, limit: ASSET_TREE.entityMappingFetch });
  const save = useSaveMapping();
  const remove = useDeleteMapping();
  const relations = RELATION_TYPES.filter((r) => RELATION_ENDS[r].from.includes(fromType));
  const [relation, setRelation] = useState<RelationType>(relations[0] as RelationType);
  const [target, setTarget] = useState<Option | null>(null);
  const ends = RELATION_ENDS[relation];

  const handleAdd = () => {
    if (!target) return;
    save.mutate(
      { relationType: relation, fromType, fromEntity, toType: ends.to, toEntity: target.id },
      {
        onSuccess: () => {
          setTarget(null);
          showToast('success', 'Successfully Created');
        },
        onError: (e) => showToast('error', (isHttpError(e) && detailOf(e.data)) || 'Failed to save'),
      },
    );
  };

  return (
    <Section title="Mapped entities">
      {(mappings.data?.contents ?? []).length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          Nothing is mapped from here yet.
        </Typography>
      ) : (
        <List dense disablePadding data-testid="mappings">
          {(mappings.data?.contents ?? []).map((m) => (
            <ListItem
              key={m.id}
              disableGutters
              secondaryAction={
                canEdit ? (
                  <IconButton edge="end" aria-label={`Remove mapping to ${m.toEntity.label}`} onClick={() => remove.mutate(m.id)}>
                    <DeleteOutline />
                  </IconButton>
                ) : null
              }
            >
              <ListItemText
                primary={<Link to={linkOf(m.toType, m.toEntity.id)}>{m.toEntity.label}</Link>}
                secondary={`${m.relationType} · ${m.toEntity.name}`}
              />
            </ListItem>
          ))}
        </List>
      )}
      {canEdit ? (
        <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            select
            size="small"
            label="Relation"
            value={relation}
            onChange={(e) => {
              setRelation(e.target.value as RelationType);
              setTarget(null);
            }}
            sx={{ width: 240 }}
          >
            {relations.map((r) => (
              <MenuItem key={r} value={r}>
                {r}
              </MenuItem>
            ))}
          </TextField>
          <Box sx={{ flex: 1, minWidth: 240 }}>
            {ends.to === 'ASSET' ? (
              <SitePicker label="Site" value={target} onChange={setTarget} />
            ) : (
              <DevicePicker
                label={ends.toDeviceType ? 'Camera' : 'Device'}
                value={target}
                onChange={setTarget}
                types={ends.toDeviceType ? [ends.toDeviceType] : undefined}
              />
            )}
          </Box>
          <Button variant="outlined" disabled={!target || save.isPending} onClick={handleAdd}>
            Map
          </Button>
        </Box>
      ) : null}
    </Section>
  );
}
