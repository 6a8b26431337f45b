import type { ReactNode } from 'react';
import { CircleAlert, CircleCheck } from 'lucide';
import { cn } from './cn';
import { Icon } from './icon';

const tones = {
  error: 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  warning: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100',
};

/**
 * A message box. Errors are announced at once (role alert), others politely
 * (role status). `live={false}` for content that updates often (countdowns).
 */
export function Alert({
  tone,
  children,
  className,
  live = true,
}: {
  tone: keyof typeof tones;
  children: ReactNode;
  className?: string;
  live?: boolean;
}) {
  const role = live ? (tone === 'error' ? 'alert' : 'status') : undefined;
  return (
    <div role={role} className={cn('flex gap-3 rounded-lg border p-3 text-sm', tones[tone], className)}>
      {tone === 'success' ? <Icon node={CircleCheck} size={20} className="mt-0.5 shrink-0" /> : <Icon node={CircleAlert} size={20} className="mt-0.5 shrink-0" />}
      <div className="min-w-0 space-y-1">{children}</div>
    </div>
  );
}
