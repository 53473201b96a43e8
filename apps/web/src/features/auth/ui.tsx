import { type InputHTMLAttributes, type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';

/** Small plain-HTML controls of the login page (MUI stays out of the login bundle). */

export const EyeIcon = ({ off }: { off?: boolean }) => (
  <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
    {off ? (
      <path d="M12 7c2.76 0 5 2.24 5 5 0 .65-.13 1.26-.36 1.83l2.92 2.92c1.51-1.26 2.7-2.89 3.43-4.75-1.73-4.39-6-7.5-11-7.5-1.4 0-2.74.25-3.98.7l2.16 2.16C10.74 7.13 11.35 7 12 7M2 4.27l2.28 2.28.46.46C3.08 8.3 1.78 10.02 1 12c1.73 4.39 6 7.5 11 7.5 1.55 0 3.03-.3 4.38-.84l.42.42L19.73 22 21 20.73 3.27 3zM7.53 9.8l1.55 1.55c-.05.21-.08.43-.08.65 0 1.66 1.34 3 3 3 .22 0 .44-.03.65-.08l1.55 1.55c-.67.33-1.41.53-2.2.53-2.76 0-5-2.24-5-5 0-.79.2-1.53.53-2.2m4.31-.78 3.15 3.15.02-.16c0-1.66-1.34-3-3-3z" />
    ) : (
      <path d="M12 4.5C7 4.5 2.73 7.61 1 12c1.73 4.39 6 7.5 11 7.5s9.27-3.11 11-7.5c-1.73-4.39-6-7.5-11-7.5M12 17c-2.76 0-5-2.24-5-5s2.24-5 5-5 5 2.24 5 5-2.24 5-5 5m0-8c-1.66 0-3 1.34-3 3s1.34 3 3 3 3-1.34 3-3-1.34-3-3-3" />
    )}
  </svg>
);

export const RefreshIcon = () => (
  <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
    <path d="M17.65 6.35C16.2 4.9 14.21 4 12 4c-4.42 0-7.99 3.58-7.99 8s3.57 8 7.99 8c3.73 0 6.84-2.55 7.73-6h-2.08c-.82 2.33-3.04 4-5.65 4-3.31 0-6-2.69-6-6s2.69-6 6-6c1.66 0 3.14.69 4.22 1.78L13 11h7V4z" />
  </svg>
);

const ErrorIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
    <path d="M11 15h2v2h-2zm0-8h2v6h-2zm.99-5C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2M12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8" />
  </svg>
);

/** After a failed check, puts the cursor in the first field marked invalid (once React has marked it). */
export function focusFirstInvalid(form: HTMLFormElement | null) {
  requestAnimationFrame(() => form?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus());
}

/** The sign-in failure, announced to screen readers. */
export function ErrorBox({ children }: { children: ReactNode }) {
  return (
    <div className="login-error" role="alert" data-testid="login-error">
      <ErrorIcon />
      <span>{children}</span>
    </div>
  );
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onValueChange(value: string): void;
  error?: string;
  help?: string;
  /** A button inside the field, at its end (show password). */
  action?: ReactNode;
  testId?: string;
}

/** A labelled text input with its error or help text tied to it. */
export function Field({ label, value, onValueChange, error, help, action, testId, id, className, ...input }: FieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const helpId = `${inputId}-help`;
  const message = error ?? help;
  return (
    <div className={`field${error ? ' field--error' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={inputId}>
        {label}
        {input.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <div className="field__control">
        <input
          {...input}
          id={inputId}
          className={`field__input${action ? ' field__input--with-action' : ''}`}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={message ? helpId : undefined}
          data-testid={testId}
        />
        {action ? <span className="field__action">{action}</span> : null}
      </div>
      {message ? (
        <p className="field__help" id={helpId}>
          {message}
        </p>
      ) : null}
    </div>
  );
}

/** A password input with a show/hide button. */
export function PasswordField(props: Omit<FieldProps, 'type' | 'action'> & { showLabel: string; hideLabel: string }) {
  const { showLabel, hideLabel, ...rest } = props;
  const [visible, setVisible] = useState(false);
  return (
    <Field
      {...rest}
      type={visible ? 'text' : 'password'}
      action={
        <button
          type="button"
          className="icon-btn"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? hideLabel : showLabel}
          aria-pressed={visible}
          disabled={rest.disabled}
        >
          <EyeIcon off={visible} />
        </button>
      }
    />
  );
}

export interface TabItem<T extends string> {
  value: T;
  label: string;
  testId?: string;
}

/** WAI-ARIA tabs: arrow keys move between them, the panels are labelled by them. */
export function Tabs<T extends string>({
  items,
  value,
  onChange,
  label,
  idPrefix,
}: {
  items: TabItem<T>[];
  value: T;
  onChange(value: T): void;
  label: string;
  idPrefix: string;
}) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const handleKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    let next = -1;
    if (event.key === 'ArrowRight') next = (index + 1) % items.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    if (next < 0) return;
    event.preventDefault();
    const item = items[next];
    if (item) onChange(item.value);
    refs.current[next]?.focus();
  };
  return (
    <div className="login-tabs" role="tablist" aria-label={label}>
      {items.map((item, index) => (
        <button
          key={item.value}
          ref={(el) => {
            refs.current[index] = el;
          }}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${item.value}`}
          aria-controls={`${idPrefix}-panel-${item.value}`}
          aria-selected={item.value === value}
          tabIndex={item.value === value ? 0 : -1}
          className="login-tabs__tab"
          onClick={() => onChange(item.value)}
          onKeyDown={(event) => handleKeyDown(event, index)}
          data-testid={item.testId}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
