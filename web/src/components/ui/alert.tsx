import type { ReactNode } from 'react';
import { CircleAlert, CircleCheck } from 'lucide';
import { cn } from './cn';
import { Icon } from './icon';

const tones = {
  error: 'border-danger-line bg-danger-soft text-danger-soft-fg',
  success: 'border-success-line bg-success-soft text-success-soft-fg',
  warning: 'border-warning-line bg-warning-soft text-warning-soft-fg',
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
