import { useId, type ReactNode } from 'react';
import { cn } from '../../../components/ui/cn';

export const fieldClasses =
  'block h-11 w-full rounded-lg border border-input bg-surface px-3 text-base text-fg shadow-sm placeholder:text-slate-500 ' +
  'focus:border-indigo-600';

/** A labelled filter control: `children` renders the control with the id the label points at. */
export function FilterField({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-fg-soft">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

/**
 * The browser's own month picker (a calendar on a laptop, a wheel on a phone, any month of any
 * year), value YYYY-MM or empty. A month input has no placeholder of its own and shows blank
 * fields as dashes, so while no month is chosen and the field is not being edited its text is
 * hidden and `placeholder` (in the UI language) shows in its place.
 */
export function MonthField({ id, value, onChange, placeholder }: { id: string; value: string; onChange: (month: string) => void; placeholder: string }) {
  return (
    <div className="relative">
      <input
        id={id}
        type="month"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={cn(fieldClasses, 'peer', !value && 'text-transparent focus:text-fg')}
      />
      {!value && (
        <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-base text-fg-faint peer-focus:hidden">
          {placeholder}
        </span>
      )}
    </div>
  );
}
