import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { X } from 'lucide';
import type { RecognitionLanguage } from '@app/shared/constants';
import { cn } from '../../../components/ui/cn';
import { Icon } from '../../../components/ui/icon';
import { currentUiLanguage } from '../../../lib/i18n';
import { filterLanguages, languageOptions, type LanguageOption } from '../../../lib/recognition-language-options';

/**
 * Every recognition language, searchable (Pro): a combobox filtering a listbox by the language's
 * own name, its name in the UI language (or English) and its tag, so 日本, Japanese and ja-JP all
 * find Japanese. Arrow keys move through the matches, Enter picks one, Escape clears the search
 * and then closes it; a tap or a click picks too. Featured languages come first, the others by
 * name. Loaded on demand, with the names it builds (Intl.DisplayNames).
 */
export default function LanguageSearch({
  value,
  onPick,
  onClose,
}: {
  value: RecognitionLanguage;
  onPick: (language: RecognitionLanguage) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const ui = currentUiLanguage();
  const listId = useId();
  const optionId = useId();
  const featuredId = useId();
  const othersId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const options = useMemo(() => languageOptions(ui), [ui]);
  const shown = useMemo(() => filterLanguages(options, query), [options, query]);
  const activeOption = shown[Math.min(active, shown.length - 1)];
  const idOf = (o: LanguageOption) => `${optionId}-${o.tag}`;

  useEffect(() => input.current?.focus(), []);
  // The active option stays in view as the arrow keys move it.
  useEffect(() => {
    if (activeOption) document.getElementById(idOf(activeOption))?.scrollIntoView?.({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- idOf only joins ids
  }, [activeOption]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (shown.length === 0) return;
      const at = Math.min(active, shown.length - 1);
      setActive(e.key === 'ArrowDown' ? (at + 1) % shown.length : (at - 1 + shown.length) % shown.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (activeOption) onPick(activeOption.tag);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (query) {
        setQuery('');
        setActive(0);
      } else onClose();
    }
  };

  const renderOption = (o: LanguageOption) => {
    const isActive = o === activeOption;
    return (
      // The keyboard works on the combobox, which points at the active option (aria-activedescendant): options take no focus.
      // eslint-disable-next-line jsx-a11y/click-events-have-key-events
      <li
        key={o.tag}
        id={idOf(o)}
        role="option"
        aria-selected={o.tag === value}
        onClick={() => onPick(o.tag)}
        onPointerMove={() => setActive(shown.indexOf(o))}
        className={cn(
          'flex cursor-pointer flex-wrap items-center gap-x-2 rounded-md px-3 py-2 text-sm',
          isActive ? 'bg-surface-muted text-fg' : 'text-fg-soft',
          o.tag === value && 'font-semibold',
        )}
      >
        <span lang={o.tag} dir="auto">
          {o.ownName}
        </span>
        {o.name !== o.ownName && <span className="text-fg-muted">{o.name}</span>}
        <span className="ml-auto font-mono text-xs text-fg-muted">{o.tag}</span>
      </li>
    );
  };
  /** A labelled group of options in the listbox; nothing when it has none. */
  const group = (id: string, label: string, options: readonly LanguageOption[]) =>
    options.length > 0 && (
      <li role="presentation">
        <div id={id} role="presentation" className="px-3 pb-1 pt-2 text-xs font-medium uppercase tracking-wide text-fg-muted">
          {label}
        </div>
        <ul role="group" aria-labelledby={id}>
          {options.map(renderOption)}
        </ul>
      </li>
    );

  const featured = shown.filter((o) => o.featured);
  const others = shown.filter((o) => !o.featured);
  return (
    <div className="mt-3 rounded-lg border border-input bg-surface p-2 shadow-sm">
      <div className="flex items-center gap-2">
        <input
          ref={input}
          type="search"
          role="combobox"
          aria-label={t('transcribe.languageSearch.label')}
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeOption ? idOf(activeOption) : undefined}
          placeholder={t('transcribe.languageSearch.placeholder')}
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          className="h-11 w-full min-w-0 rounded-lg border border-input bg-surface px-3 text-base text-fg"
        />
        <button
          type="button"
          aria-label={t('transcribe.languageSearch.close')}
          onClick={onClose}
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-muted hover:text-fg"
        >
          <Icon node={X} size={18} />
        </button>
      </div>
      <p role="status" className="sr-only">
        {shown.length > 0 ? t('transcribe.languageSearch.count', { count: shown.length }) : ''}
      </p>
      <ul id={listId} role="listbox" aria-label={t('transcribe.languageSearch.list')} className="mt-2 max-h-72 overflow-y-auto overscroll-contain">
        {group(featuredId, t('transcribe.languageSearch.featured'), featured)}
        {group(othersId, t('transcribe.languageSearch.all'), others)}
      </ul>
      {shown.length === 0 && <p className="px-3 py-2 text-sm text-fg-muted">{t('transcribe.languageSearch.none', { query: query.trim() })}</p>}
    </div>
  );
}
