import { JsonForms } from '@jsonforms/react';
import Close from '@mui/icons-material/Close';
import Fullscreen from '@mui/icons-material/Fullscreen';
import FullscreenExit from '@mui/icons-material/FullscreenExit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { defaultValues, FORM_LIMITS, FORM_MESSAGES, type FormTemplate, validateResponse } from '@sitewatch/contracts/forms';
import { VALIDATION_MESSAGES } from '@sitewatch/contracts/messages';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { toast } from '../../lib/toasts.ts';
import { fetchDraft, saveDraft, submitResponse, uploadAttachment, useTemplate, useTemplateByName } from './api.ts';
import { type FormContext, prefill } from './prefill.ts';
import type { FormRenderConfig } from './renderers/FieldControl.tsx';
import { LOCAL_PREFIX } from './renderers/FileField.tsx';
import { formRenderers } from './renderers/layouts.tsx';
import { toJsonForms } from './schema.ts';

type Data = Record<string, unknown>;
const PLACEHOLDER_UID = '00000000-0000-4000-8000-000000000000';

/** Pending local files count as attached for validation; they are uploaded on submit. */
const forValidation = (data: Data) =>
  Object.fromEntries(
    Object.entries(data).map(([k, v]) => [
      k,
      Array.isArray(v) ? v.map((x) => (typeof x === 'string' && x.startsWith(LOCAL_PREFIX) ? PLACEHOLDER_UID : x)) : v,
    ]),
  );
const withoutLocalFiles = (data: Data) =>
  Object.fromEntries(
    Object.entries(data).flatMap(([k, v]) => {
      if (!Array.isArray(v)) return [[k, v]];
      const kept = v.filter((x) => !(typeof x === 'string' && x.startsWith(LOCAL_PREFIX)));
      return kept.length || v.length === 0 ? [[k, kept]] : [];
    }),
  );

export interface FormViewProps {
  name?: string;
  id?: number;
  context?: FormContext;
  hideCancel?: boolean;
  onClose(): void;
  fullScreen?: boolean;
  onToggleFullScreen?(): void;
}

/** SPEC 2.9 and 4: loading, not found, editing, submitting with its progress card, then success or failure. */
export function FormView(props: FormViewProps) {
  const byName = useTemplateByName(props.name ?? null);
  const byId = useTemplate(props.name ? null : (props.id ?? null));
  const query = props.name ? byName : byId;
  if (query.isPending && query.fetchStatus !== 'idle') return <FormSkeleton />;
  if (!query.data)
    return (
      <Box role="alert" sx={{ textAlign: 'center', py: 6 }} data-testid="form-not-found">
        <Typography variant="h6" component="p" sx={{ mb: 2 }}>
          {FORM_MESSAGES.notFound}
        </Typography>
        <Button variant="outlined" onClick={props.onClose}>
          Close
        </Button>
      </Box>
    );
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <FilledForm key={`${query.data.id}:${query.data.version}`} template={query.data} {...props} />
    </LocalizationProvider>
  );
}

function FormSkeleton() {
  return (
    <Box data-testid="form-skeleton" aria-busy="true" aria-label="Loading form">
      <Skeleton variant="text" width="50%" height={36} />
      <Skeleton variant="text" width="80%" />
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} variant="rounded" height={44} sx={{ my: 1.5 }} />
      ))}
    </Box>
  );
}

function FilledForm({
  template,
  context,
  hideCancel,
  onClose,
  fullScreen,
  onToggleFullScreen,
}: FormViewProps & { template: FormTemplate }) {
  const { schema, uischema } = useMemo(() => toJsonForms(template.metadata), [template]);
  const defaults = useMemo(() => defaultValues(template.metadata), [template]);
  const config = useMemo<FormRenderConfig>(() => ({ files: new Map(), readOnly: new Set(Object.keys(defaults)) }), [defaults]);
  const [data, setData] = useState<Data>(defaults);
  const [touched, setTouched] = useState<Set<string> | 'all'>(new Set());
  const [progress, setProgress] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const dirty = useRef(false);
  const latest = useRef(data);
  latest.current = data;

  // A draft saved on any device resumes here; the page's site or device pre-fills the selects.
  // Read once per form: a parent re-rendering with an equal context must not reload over what was typed.
  const openedFrom = useRef(context);
  useEffect(() => {
    let live = true;
    void (async () => {
      const [draft, filled] = await Promise.all([fetchDraft(template.id), prefill(template.metadata, openedFrom.current)]);
      if (!live) return;
      setData((d) => ({ ...d, ...filled, ...(draft?.data ?? {}), ...defaults }));
      setReady(true);
    })();
    return () => {
      live = false;
    };
  }, [template, defaults]);

  useEffect(() => {
    const timer = setInterval(() => {
      if (!dirty.current) return;
      dirty.current = false;
      void saveDraft(template.id, withoutLocalFiles(latest.current)).catch(() => {
        dirty.current = true;
      });
    }, FORM_LIMITS.draftSaveMs);
    return () => clearInterval(timer);
  }, [template.id]);

  const allErrors = useMemo(() => validateResponse(template.metadata, forValidation(data)), [template, data]);
  const shown = useMemo(() => Object.entries(allErrors).filter(([k]) => touched === 'all' || touched.has(k)), [allErrors, touched]);
  // The same messages keep the same array, so that a key press does not hand JSON Forms new errors to spread.
  const shownKey = JSON.stringify(shown);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the messages, not on the array identity
  const additionalErrors = useMemo(
    () => shown.map(([k, message]) => ({ instancePath: `/${k}`, message, keyword: 'form', schemaPath: '', params: {} })),
    [shownKey],
  );

  const handleChange = useCallback(({ data: next }: { data: Data }) => {
    setData((prev) => {
      const changed = Object.keys({ ...prev, ...next }).filter((k) => prev[k] !== next[k]);
      if (changed.length) {
        dirty.current = true;
        setTouched((t) => (t === 'all' ? t : new Set([...t, ...changed])));
      }
      return next;
    });
  }, []);

  async function handleSubmit() {
    setTouched('all');
    if (Object.keys(allErrors).length) return;
    try {
      setProgress(FORM_MESSAGES.checkingAttachments);
      const answers: Data = { ...data };
      const pending = Object.entries(answers).flatMap(([k, v]) =>
        Array.isArray(v)
          ? v.filter((x): x is string => typeof x === 'string' && x.startsWith(LOCAL_PREFIX)).map((ref) => ({ k, ref }))
          : [],
      );
      const total = pending.reduce((n, p) => n + (config.files.get(p.ref)?.size ?? 0), 0) || 1;
      let sent = 0;
      const uids: string[] = [];
      for (const { k, ref } of pending) {
        setProgress(FORM_MESSAGES.uploadingAttachments(Math.round((sent / total) * 100)));
        const file = config.files.get(ref) as File;
        const uploaded = await uploadAttachment(file);
        sent += file.size;
        uids.push(uploaded.uid);
        answers[k] = (answers[k] as string[]).map((x) => (x === ref ? uploaded.uid : x));
      }
      if (pending.length) setProgress(FORM_MESSAGES.uploadingAttachments(100));
      setProgress(FORM_MESSAGES.uploadingResponse);
      await submitResponse({ formTemplate: template.id, data: answers, attachments: uids.map((uid) => ({ uid })), context });
      dirty.current = false;
      toast.success(FORM_MESSAGES.submitted);
      onClose();
    } catch {
      toast.error(FORM_MESSAGES.submitFailed);
      setProgress(null);
    }
  }

  const submitting = progress !== null;
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void handleSubmit();
      }}
      aria-labelledby="form-title"
      data-testid="dynamic-form"
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, mb: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id="form-title" variant="h5" component="h2">
            {template.label}
          </Typography>
          {template.description ? (
            <Typography variant="body2" color="text.secondary">
              {template.description}
            </Typography>
          ) : null}
        </Box>
        {onToggleFullScreen ? (
          <Tooltip title={fullScreen ? 'Exit full screen' : 'Full screen'}>
            <IconButton onClick={onToggleFullScreen} aria-label={fullScreen ? 'Exit full screen' : 'Full screen'}>
              {fullScreen ? <FullscreenExit /> : <Fullscreen />}
            </IconButton>
          </Tooltip>
        ) : null}
        <IconButton onClick={onClose} aria-label="Close form" disabled={submitting}>
          <Close />
        </IconButton>
      </Box>
      {shown.length ? (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="form-errors-banner">
          {VALIDATION_MESSAGES.fillRequired}
        </Alert>
      ) : null}
      {submitting ? (
        <Card variant="outlined" sx={{ mb: 2 }} role="status" aria-live="polite" data-testid="form-progress">
          <CardContent>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {progress}
            </Typography>
            <LinearProgress />
          </CardContent>
        </Card>
      ) : null}
      {ready ? (
        <Box sx={{ opacity: submitting ? 0.6 : 1, pointerEvents: submitting ? 'none' : undefined }}>
          <JsonForms
            schema={schema as never}
            uischema={uischema as never}
            data={data}
            renderers={formRenderers}
            config={config}
            validationMode="NoValidation"
            additionalErrors={additionalErrors as never}
            onChange={handleChange as never}
            readonly={submitting}
          />
        </Box>
      ) : (
        <FormSkeleton />
      )}
      <Box
        sx={{
          display: 'flex',
          justifyContent: 'flex-end',
          gap: 1,
          mt: 2,
          position: 'sticky',
          bottom: 0,
          py: 1,
          bgcolor: 'background.paper',
        }}
      >
        {hideCancel || template.hideCancel ? null : (
          <Button onClick={onClose} disabled={submitting}>
            Cancel
          </Button>
        )}
        <Button type="submit" variant="contained" disabled={submitting || shown.length > 0 || !ready}>
          Submit
        </Button>
      </Box>
    </Box>
  );
}
