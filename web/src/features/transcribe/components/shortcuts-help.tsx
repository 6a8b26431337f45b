import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { SHORTCUT_KEYS } from '../hooks/use-shortcuts';
import { KeyboardIcon } from './icons';

/** A small popover listing the keyboard shortcuts. Escape or a click outside closes it. */
export function ShortcutsHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        onOpenChange(false);
        button.current?.focus();
      }
    };
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) onOpenChange(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, onOpenChange]);

  const rows = [
    [SHORTCUT_KEYS.toggle, t('transcribe.shortcuts.startPause')],
    [SHORTCUT_KEYS.stop, t('transcribe.shortcuts.stop')],
    [SHORTCUT_KEYS.captions, t('transcribe.shortcuts.captions')],
    [SHORTCUT_KEYS.help, t('transcribe.shortcuts.help')],
  ] as const;

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-label={t('transcribe.tools.shortcuts')}
        aria-expanded={open}
        aria-controls={panelId}
        aria-keyshortcuts={SHORTCUT_KEYS.help}
        onClick={() => onOpenChange(!open)}
        className="inline-flex size-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
      >
        <KeyboardIcon />
      </button>
      <div
        id={panelId}
        hidden={!open}
        role="region"
        aria-label={t('transcribe.tools.shortcuts')}
        className="absolute right-0 top-11 z-30 w-64 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        <p className="mb-2 font-semibold text-slate-900 dark:text-white">{t('transcribe.tools.shortcuts')}</p>
        <dl className="space-y-1.5">
          {rows.map(([key, label]) => (
            <div key={key} className="flex items-center justify-between gap-3">
              <dt className="text-slate-700 dark:text-slate-300">{label}</dt>
              <dd>
                <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs uppercase text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100">
                  {key}
                </kbd>
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
