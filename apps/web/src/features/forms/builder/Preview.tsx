import { JsonForms } from '@jsonforms/react';
import Typography from '@mui/material/Typography';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { checkTemplate, type FormMetadata, validateResponse } from '@sitewatch/contracts/forms';
import { useMemo, useState } from 'react';
import type { FormRenderConfig } from '../renderers/FieldControl.tsx';
import { formRenderers } from '../renderers/layouts.tsx';
import { toJsonForms } from '../schema.ts';

/** The form as it will be filled, live while it is built; answers here are never sent. */
export function Preview({ metadata, label, description }: { metadata: FormMetadata; label: string; description: string }) {
  const problems = useMemo(() => checkTemplate(metadata as never), [metadata]);
  const { schema, uischema } = useMemo(() => toJsonForms(metadata), [metadata]);
  const config = useMemo<FormRenderConfig>(() => ({ files: new Map(), readOnly: new Set() }), []);
  const [data, setData] = useState<Record<string, unknown>>({});
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const errors = useMemo(() => {
    if (problems.length) return [];
    const all = validateResponse(metadata, data);
    return Object.entries(all)
      .filter(([k]) => touched.has(k))
      .map(([k, message]) => ({ instancePath: `/${k}`, message, keyword: 'form', schemaPath: '', params: {} }));
  }, [metadata, data, touched, problems]);
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <Typography variant="h6" component="h2">
        {label || 'Untitled form'}
      </Typography>
      {description ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {description}
        </Typography>
      ) : null}
      {problems.length ? (
        <Typography color="error" variant="body2" role="alert">
          {problems[0]?.message}
        </Typography>
      ) : (
        <JsonForms
          schema={schema as never}
          uischema={uischema as never}
          data={data}
          renderers={formRenderers}
          config={config}
          validationMode="NoValidation"
          additionalErrors={errors as never}
          onChange={({ data: next }) => {
            setTouched((t) => new Set([...t, ...Object.keys(next ?? {}).filter((k) => next[k] !== data[k])]));
            setData(next ?? {});
          }}
        />
      )}
    </LocalizationProvider>
  );
}
