import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';
import { cn } from './cn';

export const inputClasses =
  'block h-11 w-full rounded-lg border border-input bg-surface px-3 text-base text-fg shadow-sm ' +
  'placeholder:text-slate-500 focus:border-indigo-600 read-only:bg-surface-muted read-only:text-fg-subtle ' +
  'aria-invalid:border-danger disabled:opacity-60';

interface FieldProps {
  label: string;
  /** Shown under the field and linked to it; makes the field aria-invalid. */
  error?: string | undefined;
  hint?: string | undefined;
  className?: string | undefined;
}

/** What the control inside a field carries: its id and the links to the hint and error. */
interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A label, the control, its hint and its error, wired through aria-describedby. */
function Field({ label, error, hint, className, children }: FieldProps & { children: (control: ControlProps) => ReactNode }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-fg-soft">
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="text-sm text-fg-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

export interface TextFieldProps extends FieldProps, Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  /** Something placed inside the field, at the end (e.g. a show-password button). */
  trailing?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with its hint and error wired through aria-describedby. */
export function TextField({ label, error, hint, trailing, className, ref, ...input }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => (
        <div className="relative">
          <input ref={ref} {...control} className={cn(inputClasses, trailing ? 'pr-12' : undefined)} {...input} />
          {trailing && <div className="absolute inset-y-0 right-0 flex items-center pr-1">{trailing}</div>}
        </div>
      )}
    </Field>
  );
}

export interface TextAreaFieldProps extends FieldProps, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'> {
  ref?: Ref<HTMLTextAreaElement>;
}

/** A labelled textarea with its hint and error wired through aria-describedby. */
export function TextAreaField({ label, error, hint, className, ref, ...textarea }: TextAreaFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => <textarea ref={ref} {...control} className={cn(inputClasses, 'h-auto min-h-36 resize-y py-2')} {...textarea} />}
    </Field>
  );
}

/** A required email address field (the right keyboard and autofill). */
export function EmailField(props: Omit<TextFieldProps, 'type' | 'autoComplete' | 'inputMode' | 'required'>) {
  return <TextField type="email" autoComplete="email" inputMode="email" required {...props} />;
}
