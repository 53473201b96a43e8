import { createAjv } from '@jsonforms/core';
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
import { defaultValues, FORM_LIMITS, FORM_MESSAGES, type FormTemplate } from '@sitewatch/contracts/forms';
import { VALIDATION_MESSAGES } from '@sitewatch/contracts/messages';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { isHttpError } from '../../lib/http.ts';
import { connection } from '../../lib/offline/connection.ts';
import { QUEUED_MESSAGE } from '../../lib/offline/send-or-queue.ts';
import { toast } from '../../lib/toasts.ts';
import { prefetchDraft, saveDraft, submitResponse, takeDraft, uploadAttachment, useTemplate, useTemplateByName } from './api.ts';
import { createFormState, type FormState } from './form-state.ts';
import { queueResponse } from './offline.ts';
import { type FormContext, prefill } from './prefill.ts';
import type { FormRenderConfig } from './renderers/FieldControl.tsx';
import { LOCAL_PREFIX } from './renderers/FileField.tsx';
import { formRenderers } from './renderers/layouts.tsx';
import { toJsonForms } from './schema.ts';
import { uploadPercent } from './upload-progress.ts';

type Data = Record<string, unknown>;
const PLACEHOLDER_UID = '00000000-0000-4000-8000-000000000000';

/** Pending local files count as attached for validation; they are uploaded on submit. */
const asValidated = (v: unknown) =>
  Array.isArray(v) ? v.map((x) => (typeof x === 'string' && x.startsWith(LOCAL_PREFIX) ? PLACEHOLDER_UID : x)) : v;
/**
 * JSON Forms makes an AJV instance for every form it opens unless it is given one. With NoValidation (our own
 * validation module checks the answers) it only needs one for rules with a schema condition, so every form shares
 * one that is built on first use: building it costs some 8 ms, paid by a form that has such a rule.
 */
type Ajv = ReturnType<typeof createAjv>;
let ajv: Ajv | undefined;
const lazyAjv = new Proxy({} as Ajv, {
  get(_, property) {
    ajv ??= createAjv();
    const value = Reflect.get(ajv, property, ajv);
    return typeof value === 'function' ? value.bind(ajv) : value;
  },
});
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
  // Opened by id while the template is on its way: the draft is asked for beside it rather than after it (the form
  // takes it when it opens; Fill on the forms list asks for it earlier still).
  const waiting = !query.data;
  useEffect(() => {
    if (waiting && props.id && props.id > 0) prefetchDraft(props.id);
  }, [waiting, props.id]);
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
  const dirty = useRef(false);
  const formRef = useRef<HTMLDivElement>(null);
  // The answers live outside React: a key press wakes only its own control (form-state.ts).
  const [state] = useState(() =>
    createFormState(template.metadata, defaults, {
      forValidation: asValidated,
      onChange: () => {
        dirty.current = true;
      },
    }),
  );
  const config = useMemo<FormRenderConfig>(
    () => ({ files: new Map(), readOnly: new Set(Object.keys(defaults)), state }),
    [defaults, state],
  );
  // What JSON Forms is given once the draft is in; it lays the form out and picks the controls, and is not
  // handed every key press.
  const [initial, setInitial] = useState<Data | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const ready = initial !== null;

  // A draft saved on any device resumes here; the page's site or device pre-fills the selects.
  // Read once per form: a parent re-rendering with an equal context must not reload over what was typed.
  const openedFrom = useRef(context);
  useEffect(() => {
    let live = true;
    void (async () => {
      // Without a connection the form opens from what the phone kept, or empty.
      const [draft, filled] = await Promise.all([
        takeDraft(template.id).catch(() => null),
        prefill(template.metadata, openedFrom.current).catch(() => ({})),
      ]);
      if (!live) return;
      state.reset({ ...defaults, ...filled, ...(draft?.data ?? {}), ...defaults });
      setInitial(state.data());
    })();
    return () => {
      live = false;
    };
  }, [template, defaults, state]);

  useEffect(() => {
    const timer = setInterval(() => {
      if (!dirty.current) return;
      dirty.current = false;
      void saveDraft(template.id, withoutLocalFiles(state.data())).catch(() => {
        dirty.current = true;
      });
    }, FORM_LIMITS.draftSaveMs);
    return () => clearInterval(timer);
  }, [template.id, state]);

  async function handleSubmit() {
    if (!state.showAll()) {
      // Submit turns disabled while errors show: the keyboard goes on at the first field to put right.
      requestAnimationFrame(() => focusFirstError(formRef.current));
      return;
    }
    try {
      setProgress(FORM_MESSAGES.checkingAttachments);
      const answers: Data = { ...state.data() };
      const pending = Object.entries(answers).flatMap(([k, v]) =>
        Array.isArray(v)
          ? v.filter((x): x is string => typeof x === 'string' && x.startsWith(LOCAL_PREFIX)).map((ref) => ({ k, ref }))
          : [],
      );
      const files = pending.map((p) => config.files.get(p.ref) as File);
      if (!connection.online()) {
        await keepForLater(answers, pending, files);
        return;
      }
      const sizes = files.map((f) => f.size);
      const uids: string[] = [];
      for (const [i, { k, ref }] of pending.entries()) {
        setProgress(FORM_MESSAGES.uploadingAttachments(uploadPercent(sizes, i)));
        const uploaded = await uploadAttachment(files[i] as File, (sent) =>
          setProgress(FORM_MESSAGES.uploadingAttachments(uploadPercent(sizes, i, sent))),
        );
        uids.push(uploaded.uid);
        answers[k] = (answers[k] as string[]).map((x) => (x === ref ? uploaded.uid : x));
      }
      if (pending.length) setProgress(FORM_MESSAGES.uploadingAttachments(uploadPercent(sizes, pending.length)));
      setProgress(FORM_MESSAGES.uploadingResponse);
      await submitResponse({
        formTemplate: template.id,
        version: template.version,
        data: answers,
        attachments: uids.map((uid) => ({ uid })),
        context,
      });
      dirty.current = false;
      toast.success(FORM_MESSAGES.submitted);
      onClose();
    } catch (error) {
      if (isHttpError(error) && error.status === 0) {
        // The connection went during the send: the whole response waits in the outbox (its photos uploaded again).
        await keepForLater(state.data(), [], []).catch(() => toast.error(FORM_MESSAGES.submitFailed));
        return;
      }
      // a form published again while it was filled: the server names the change
      toast.error(isHttpError(error) && error.status === 409 && error.detail ? error.detail : FORM_MESSAGES.submitFailed);
      setProgress(null);
    }
  }

  async function keepForLater(answers: Data, pending: { ref: string }[], files: File[]) {
    const named = new Set(Object.values(answers).flatMap((v) => (Array.isArray(v) ? v : [])));
    const local = pending.length
      ? pending.map((p, i) => ({ ref: p.ref, file: files[i] as File }))
      : [...config.files.entries()].filter(([ref]) => named.has(ref)).map(([ref, file]) => ({ ref, file }));
    await queueResponse(template, answers, local, context);
    dirty.current = false;
    toast.info(QUEUED_MESSAGE);
    onClose();
  }

  const submitting = progress !== null;
  return (
    // The fields are forms of their own (FieldShell), so the screen is a form landmark, not a <form> around them.
    <Box role="form" aria-labelledby="form-title" data-testid="dynamic-form" ref={formRef}>
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
      <ErrorsBanner state={state} />
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
            data={initial}
            renderers={formRenderers}
            config={config}
            ajv={lazyAjv}
            validationMode="NoValidation"
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
        <SubmitButton state={state} disabled={submitting || !ready} onSubmit={() => void handleSubmit()} />
      </Box>
    </Box>
  );
}

/** Focuses the control of the first field that shows an error (for a group of choices, its chosen or first one). */
function focusFirstError(root: HTMLElement | null) {
  const field = root?.querySelector('.dfs-error')?.closest('.dfs-field');
  if (!field) return;
  // the field's own controls, not the help button beside its label
  const controls = [...field.querySelectorAll<HTMLElement>('input:not([type=hidden]), textarea, select, button, [tabindex="0"]')].filter(
    (c) => !c.closest('.dfs-head') && !c.matches(':disabled'),
  );
  (controls.find((c) => c.matches('input:checked')) ?? controls[0])?.focus();
}

/** SPEC 4: 'Please Fill all the required fields' while any field shows an error. */
function ErrorsBanner({ state }: { state: FormState }) {
  const shown = useSyncExternalStore(state.subscribeSummary, state.hasShownErrors);
  return shown ? (
    <Alert severity="error" sx={{ mb: 2 }} data-testid="form-errors-banner">
      {VALIDATION_MESSAGES.fillRequired}
    </Alert>
  ) : null;
}

/** Disabled while any field shows an error, while submitting and until the draft is in. */
function SubmitButton({ state, disabled, onSubmit }: { state: FormState; disabled: boolean; onSubmit: () => void }) {
  const shown = useSyncExternalStore(state.subscribeSummary, state.hasShownErrors);
  return (
    <Button variant="contained" disabled={disabled || shown} onClick={onSubmit}>
      Submit
    </Button>
  );
}
