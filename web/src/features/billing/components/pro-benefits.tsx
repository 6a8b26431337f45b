import { Check } from 'lucide';
import { cn } from '../../../components/ui/cn';
import { useBillingT } from '../i18n';
import { Icon } from '../../../components/ui/icon';

/** What Pro gives. */
export const PRO_BENEFITS = ['unlimited', 'languages', 'save', 'export', 'darkTheme', 'badge'] as const;

export function ProBenefits({ className }: { className?: string }) {
  const tb = useBillingT();
  return (
    <ul className={cn('space-y-2', className)}>
      {PRO_BENEFITS.map((key) => (
        <li key={key} className="flex items-start gap-2 text-sm text-fg-subtle">
          <Icon node={Check} size={18} className="mt-0.5 shrink-0 text-success" />
          {tb(`benefits.${key}`)}
        </li>
      ))}
    </ul>
  );
}
