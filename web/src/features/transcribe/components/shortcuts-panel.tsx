import * as Popover from '@radix-ui/react-popover';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { SHORTCUT_KEYS } from '../hooks/use-shortcuts';

/**
 * The shortcuts list in a Radix popover below its button (`anchor`, which stays in the home chunk
 * and toggles it). It leaves the focus where it is: a region to read, not a dialog to enter. Escape
 * closes it and focuses the button; a click outside closes it; moving the focus elsewhere does not.
 */
export default function ShortcutsPanel({
  id,
  anchor,
  open,
  onOpenChange,
}: {
  id: string;
  anchor: RefObject<HTMLButtonElement | null>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const rows = [
    [SHORTCUT_KEYS.toggle, t('transcribe.shortcuts.startPause')],
    [SHORTCUT_KEYS.stop, t('transcribe.shortcuts.stop')],
    [SHORTCUT_KEYS.captions, t('transcribe.shortcuts.captions')],
    [SHORTCUT_KEYS.help, t('transcribe.shortcuts.help')],
  ] as const;

  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Anchor virtualRef={anchor as RefObject<HTMLButtonElement>} />
      <Popover.Content
        id={id}
        role="region"
        aria-label={t('transcribe.tools.shortcuts')}
        side="bottom"
        align="end"
        sideOffset={8}
        onOpenAutoFocus={(event) => event.preventDefault()}
        onCloseAutoFocus={(event) => event.preventDefault()}
        onEscapeKeyDown={() => anchor.current?.focus()}
        onFocusOutside={(event) => event.preventDefault()}
        onPointerDownOutside={(event) => {
          // The button toggles the popover itself.
          if (anchor.current?.contains(event.target as Node)) event.preventDefault();
        }}
        className="z-30 w-64 rounded-xl border border-border-raised bg-surface p-4 text-sm shadow-lg"
      >
        <p className="mb-2 font-semibold text-fg">{t('transcribe.tools.shortcuts')}</p>
        <dl className="space-y-1.5">
          {rows.map(([key, label]) => (
            <div key={key} className="flex items-center justify-between gap-3">
              <dt className="text-fg-subtle">{label}</dt>
              <dd>
                <kbd className="rounded border border-input bg-surface-muted px-1.5 py-0.5 font-mono text-xs uppercase text-fg-soft">
                  {key}
                </kbd>
              </dd>
            </div>
          ))}
        </dl>
      </Popover.Content>
    </Popover.Root>
  );
}
