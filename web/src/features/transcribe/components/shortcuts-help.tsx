import { Keyboard } from 'lucide';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/icon';
import { withPageCopy } from '../../../lib/i18n';
import { SHORTCUT_KEYS } from '../hooks/use-shortcuts';

/* Radix Popover and the list load when the help first opens: the home route carries only the button. */
const ShortcutsPanel = lazy(withPageCopy(() => import('./shortcuts-panel')));

/** The keyboard-shortcuts button and its popover. Escape or a click outside closes it. */
export function ShortcutsHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label={t('transcribe.tools.shortcuts')}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-keyshortcuts={SHORTCUT_KEYS.help}
        onClick={() => onOpenChange(!open)}
        className="inline-flex size-9 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-muted hover:text-fg"
      >
        <Icon node={Keyboard} size={18} />
      </button>
      {opened && (
        <Suspense fallback={null}>
          <ShortcutsPanel id={panelId} anchor={button} open={open} onOpenChange={onOpenChange} />
        </Suspense>
      )}
    </>
  );
}
