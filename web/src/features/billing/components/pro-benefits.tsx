import { useTranslation } from 'react-i18next';
import { Check } from 'lucide';
import { cn } from '../../../components/ui/cn';
import { Icon } from '../../../components/ui/icon';
import { PLAN_VALUES, PRO_PLAN } from '../../../lib/plan-values';

/** What Pro adds: the shared plan copy, as the pricing page, the upgrade modal and the plan card list it. */
export function ProBenefits({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <ul className={cn('space-y-2', className)}>
      {PRO_PLAN.map((key) => (
        <li key={key} className="flex items-start gap-2 text-sm text-fg-subtle">
          <Icon node={Check} size={18} className="mt-0.5 shrink-0 text-success" />
          {t(`plans.pro.${key}`, PLAN_VALUES)}
        </li>
      ))}
    </ul>
  );
}
