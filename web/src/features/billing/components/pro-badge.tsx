import { Sparkles } from 'lucide';
import { cn } from '../../../components/ui/cn';
import { useBillingT } from '../i18n';
import { Icon } from '../../../components/ui/icon';

export function ProBadge({ className }: { className?: string }) {
  const tb = useBillingT();
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full bg-linear-to-r from-amber-400 to-orange-500 px-2.5 py-1 text-xs font-bold uppercase tracking-wide text-slate-950',
        className,
      )}
    >
      <Icon node={Sparkles} size={14} />
      {tb('proBadge')}
    </span>
  );
}
