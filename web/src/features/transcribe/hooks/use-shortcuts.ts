import { useEffect, useRef } from 'react';

/** The card's keyboard shortcuts (single keys, no modifier), shown in the shortcuts popover. */
export const SHORTCUT_KEYS = { toggle: 'k', stop: 's', captions: 'c', help: '?' } as const;
export type ShortcutAction = keyof typeof SHORTCUT_KEYS;

/** Typing in a field, or a key meant for a control, never triggers a shortcut. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"], [role="combobox"]')) return true;
  // Inside a dialog other than caption mode (save, confirm, upgrade...).
  return target.closest('[role="dialog"]:not([data-caption-mode]), [role="alertdialog"], [role="menu"]') !== null;
}

export function useShortcuts(handlers: Record<ShortcutAction, () => void>, enabled = true): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (isTypingTarget(event.target)) return;
      const key = event.key.toLowerCase();
      const action = (Object.keys(SHORTCUT_KEYS) as ShortcutAction[]).find((a) => SHORTCUT_KEYS[a] === key);
      if (!action) return;
      event.preventDefault();
      latest.current[action]();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
