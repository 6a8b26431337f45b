import { lazy, Suspense, useState } from 'react';
import { CaptionView } from '../../../components/caption-style/caption-view';
import { useCaptionStyleT } from '../../../components/caption-style/i18n';
import { Button } from '../../../components/ui/button';
import { useCaptionFont } from '../../../lib/caption-fonts';
import { useCaptionStyle } from '../../../lib/caption-style';
import { Section } from './section';

const CaptionStyleEditor = lazy(() => import('../../../components/caption-style/style-editor'));

/** The caption style, small, and the button that opens its editor (loaded when first opened). */
export function CaptionStyleSettings() {
  const tc = useCaptionStyleT();
  const { style } = useCaptionStyle();
  const [editing, setEditing] = useState(false);
  useCaptionFont(style.font);
  return (
    <Section title={tc('title')} description={tc('sectionText')}>
      <div className="overflow-hidden rounded-lg border border-input bg-black" style={{ height: '8rem' }}>
        <CaptionView style={{ ...style, size: Math.max(12, Math.round(style.size * 0.4)) }} text={tc('sample')} className="h-full" testId="profile-caption-style" />
      </div>
      <Button variant="secondary" className="mt-4" onClick={() => setEditing(true)}>
        {tc('edit')}
      </Button>
      {editing && (
        <Suspense fallback={null}>
          <CaptionStyleEditor open onOpenChange={setEditing} />
        </Suspense>
      )}
    </Section>
  );
}
