import { Moon, Sun } from 'lucide';
import { Icon } from './icon';

interface ThemeToggleProps {
  /** Whether the dark theme is on (the button shows as pressed, with a sun to switch back). */
  dark: boolean;
  /** The button's accessible name and tooltip. */
  label: string;
  onToggle: () => void;
}

/** A pressed/unpressed button for the dark theme; who may see it and what a press saves is the caller's. */
export function ThemeToggle({ dark, label, onToggle }: ThemeToggleProps) {
  return (
    <button
      type="button"
      aria-pressed={dark}
      aria-label={label}
      title={label}
      onClick={onToggle}
      className="inline-flex size-9 items-center justify-center rounded-lg text-fg-subtle hover:bg-surface-muted"
    >
      {dark ? <Icon node={Sun} size={18} /> : <Icon node={Moon} size={18} />}
    </button>
  );
}
