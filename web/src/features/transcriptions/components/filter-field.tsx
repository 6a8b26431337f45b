import { useId, type ReactNode } from 'react';

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
