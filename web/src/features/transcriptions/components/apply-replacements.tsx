import { useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { useCorrections } from '../../../lib/corrections-settings';
import { replacer } from '../../../lib/text-corrections';

/**
 * "Apply replacements" in the transcription editor: the user's current replacement list applied
 * to the text being edited, in one action; Undo brings back the text from before it (until the
 * text is typed in again). Nothing is saved: the editor's Save does that. Absent without a list.
 */
export function ApplyReplacements({ textRef, onChange }: { textRef: RefObject<HTMLTextAreaElement | null>; onChange: () => void }) {
  const { t } = useTranslation();
  const { settings } = useCorrections();
  /** The text before the replacements, while Undo can bring it back. */
  const [before, setBefore] = useState<string | null>(null);
  if (settings.replacements.length === 0 && before === null) return null;

  const apply = () => {
    const area = textRef.current;
    if (!area) return;
    const text = area.value;
    const corrected = replacer(settings.replacements)(text);
    if (corrected === text) return;
    area.value = corrected;
    setBefore(text);
    // Typing again ends what Undo can bring back.
    area.addEventListener('input', () => setBefore(null), { once: true });
    onChange();
  };
  const undo = () => {
    const area = textRef.current;
    if (!area || before === null) return;
    area.value = before;
    setBefore(null);
    onChange();
  };

  return before === null ? (
    <Button variant="secondary" size="sm" onClick={apply}>
      {t('transcriptionCorrections.apply')}
    </Button>
  ) : (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span role="status" className="text-sm text-fg-muted">
        {t('transcriptionCorrections.applied')}
      </span>
      <Button variant="secondary" size="sm" onClick={undo}>
        {t('transcriptionCorrections.undo')}
      </Button>
    </span>
  );
}
