import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { FORM_LIMITS } from '@sitewatch/contracts/forms';
import { COMMON_MESSAGES } from '@sitewatch/contracts/messages';
import { useState } from 'react';

/** Files chosen but not yet uploaded, by a local reference kept in the answer until submit. */
export type PendingFiles = Map<string, File>;
export const LOCAL_PREFIX = 'local:';
let seq = 0;

/** Picks files; each over 1 MB is refused at once (SPEC 5 message). Uploads happen on submit. */
export function FileField(props: {
  id: string;
  label: string;
  value: unknown;
  onChange(value: string[] | undefined): void;
  disabled: boolean;
  files: PendingFiles;
}) {
  const [tooLarge, setTooLarge] = useState(false);
  const refs = Array.isArray(props.value) ? (props.value as string[]) : [];
  const nameOf = (ref: string) => props.files.get(ref)?.name ?? 'Attached file';
  return (
    <Box>
      <Button component="label" variant="outlined" size="small" startIcon={<AttachFile />} disabled={props.disabled}>
        Choose files
        <input
          id={props.id}
          hidden
          type="file"
          multiple
          aria-label={props.label}
          onChange={(e) => {
            const chosen = Array.from(e.target.files ?? []);
            e.target.value = '';
            const ok = chosen.filter((f) => f.size <= FORM_LIMITS.attachmentBytes);
            setTooLarge(ok.length !== chosen.length);
            const added = ok.map((f) => {
              const ref = `${LOCAL_PREFIX}${++seq}`;
              props.files.set(ref, f);
              return ref;
            });
            if (added.length) props.onChange([...refs, ...added]);
          }}
        />
      </Button>
      {tooLarge ? (
        <Box role="alert" sx={{ color: 'error.main', fontSize: 13, mt: 0.5 }}>
          {COMMON_MESSAGES.attachmentTooLarge}
        </Box>
      ) : null}
      <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: refs.length ? 1 : 0 }}>
        {refs.map((ref) => (
          <Chip
            key={ref}
            label={nameOf(ref)}
            size="small"
            onDelete={
              props.disabled
                ? undefined
                : () => props.onChange(refs.filter((r) => r !== ref).length ? refs.filter((r) => r !== ref) : undefined)
            }
            deleteIcon={<Close aria-label={`Remove ${nameOf(ref)}`} />}
          />
        ))}
      </Box>
    </Box>
  );
}
