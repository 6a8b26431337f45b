import { useId, useState, type ReactNode } from 'react';
import {
  CAPTION_ALIGNS,
  CAPTION_EDGES,
  CAPTION_FONTS,
  CAPTION_INTERIM,
  CAPTION_LIMITS,
  CAPTION_POSITIONS,
  CAPTION_WEIGHTS,
  captionContrast,
  COLOR_PRESETS,
  DEFAULT_CAPTION_STYLE,
  MIN_CONTRAST,
  type CaptionFont,
  type CaptionStyle,
  type ColorPreset,
} from '@app/shared/caption-style';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { Dialog } from '../ui/dialog';
import { describeError } from '../../lib/api';
import { useCaptionFont } from '../../lib/caption-fonts';
import { useCaptionStyle, useSaveCaptionStyle } from '../../lib/caption-style';
import { toast } from '../../lib/toast';
import { currentUiLanguage } from '../../lib/i18n';
import { CaptionView } from './caption-view';
import { useCaptionStyleT } from './i18n';

/** The preview is this fraction of the real size (it is a small box, the captions fill a screen). */
const PREVIEW_SCALE = 0.5;
/** Font names are the fonts' own, the same in every language. */
const FONT_NAMES: Partial<Record<CaptionFont, string>> = { atkinson: 'Atkinson Hyperlegible', opendyslexic: 'OpenDyslexic' };
/** A grid item across both columns (inline: no class of its own in the app's stylesheet). */
const WHOLE_ROW = { gridColumn: '1 / -1' };
const selectClasses = 'h-11 w-full rounded-lg border border-input bg-surface px-3 text-base text-fg shadow-sm';

/**
 * The caption style editor: every setting of the style, a live preview and the contrast of the
 * chosen colours (WCAG; under 4.5:1 flagged). Saves to the account, or the device for a visitor.
 * Loaded only when opened.
 */
export default function CaptionStyleEditor({
  open,
  onOpenChange,
  container,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  container?: HTMLElement | null;
}) {
  const tc = useCaptionStyleT();
  const { style } = useCaptionStyle();
  const [draft, setDraft] = useState<CaptionStyle>(style);
  const save = useSaveCaptionStyle();
  useCaptionFont(draft.font);
  const set = <K extends keyof CaptionStyle>(key: K, value: CaptionStyle[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const onSave = () => {
    save.save(draft).then(
      () => {
        toast.success(tc('saved'));
        onOpenChange(false);
      },
      (err: unknown) => toast.error(tc('saveFailed'), { description: describeError(err) }),
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={tc('title')} description={tc('description')} container={container} className="max-h-[calc(100dvh-10rem)] max-w-3xl overflow-y-auto">
      <div className="space-y-6">
        <div role="region" aria-label={tc('preview')} className="overflow-hidden rounded-lg border border-input bg-black" style={{ aspectRatio: '16 / 9' }}>
          <CaptionView
            style={{ ...draft, size: Math.max(12, Math.round(draft.size * PREVIEW_SCALE)) }}
            text={`${tc('sample')} `}
            interim={tc('sampleInterim')}
            className="h-full"
            testId="caption-preview"
          />
        </div>

        <Group legend={tc('text')}>
          <Select label={tc('font')} value={draft.font} onChange={(v) => set('font', v as CaptionFont)}>
            {CAPTION_FONTS.map((font) => (
              <option key={font} value={font}>
                {FONT_NAMES[font] ?? tc(`fonts.${font as 'sans' | 'serif' | 'mono'}`)}
              </option>
            ))}
          </Select>
          <Select label={tc('weight')} value={String(draft.weight)} onChange={(v) => set('weight', Number(v) as CaptionStyle['weight'])}>
            {CAPTION_WEIGHTS.map((w) => (
              <option key={w} value={w}>
                {tc(`weights.${w}`)}
              </option>
            ))}
          </Select>
          <Slider label={tc('size')} value={draft.size} {...CAPTION_LIMITS.size} step={2} shown={`${draft.size} px`} onChange={(v) => set('size', v)} />
          <Slider label={tc('lineHeight')} value={draft.lineHeight} {...CAPTION_LIMITS.lineHeight} step={0.05} shown={draft.lineHeight.toFixed(2)} onChange={(v) => set('lineHeight', v)} />
          <Slider
            label={tc('letterSpacing')}
            value={draft.letterSpacing}
            {...CAPTION_LIMITS.letterSpacing}
            step={0.01}
            shown={`${draft.letterSpacing.toFixed(2)} em`}
            onChange={(v) => set('letterSpacing', v)}
          />
          <label className="flex items-center gap-2 text-sm font-medium text-fg-soft">
            <input type="checkbox" className="size-5" checked={draft.uppercase} onChange={(e) => set('uppercase', e.target.checked)} />
            {tc('uppercase')}
          </label>
        </Group>

        <Colors draft={draft} set={set} setDraft={setDraft} />

        <Group legend={tc('layout')}>
          <Select label={tc('position')} value={draft.position} onChange={(v) => set('position', v as CaptionStyle['position'])}>
            {CAPTION_POSITIONS.map((p) => (
              <option key={p} value={p}>
                {tc(`positions.${p}`)}
              </option>
            ))}
          </Select>
          <Select label={tc('align')} value={draft.align} onChange={(v) => set('align', v as CaptionStyle['align'])}>
            {CAPTION_ALIGNS.map((a) => (
              <option key={a} value={a}>
                {tc(`aligns.${a}`)}
              </option>
            ))}
          </Select>
          <Slider label={tc('lines')} value={draft.lines} {...CAPTION_LIMITS.lines} step={1} shown={String(draft.lines)} onChange={(v) => set('lines', v)} />
          <Select label={tc('interim')} value={draft.interim} onChange={(v) => set('interim', v as CaptionStyle['interim'])}>
            {CAPTION_INTERIM.map((i) => (
              <option key={i} value={i}>
                {tc(`interims.${i}`)}
              </option>
            ))}
          </Select>
        </Group>

        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" className="mr-auto" onClick={() => setDraft(DEFAULT_CAPTION_STYLE)}>
            {tc('reset')}
          </Button>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {tc('cancel')}
          </Button>
          <Button onClick={onSave} loading={save.isPending}>
            {tc('save')}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

function Colors({
  draft,
  set,
  setDraft,
}: {
  draft: CaptionStyle;
  set: <K extends keyof CaptionStyle>(key: K, value: CaptionStyle[K]) => void;
  setDraft: (update: (d: CaptionStyle) => CaptionStyle) => void;
}) {
  const tc = useCaptionStyleT();
  const language = currentUiLanguage();
  const ids = { color: useId(), background: useId() };
  const ratio = captionContrast(draft);
  const low = ratio < MIN_CONTRAST;
  const shown = new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Math.floor(ratio * 10) / 10);
  return (
    <Group legend={tc('colors')}>
      <div className="flex flex-wrap gap-2" style={WHOLE_ROW}>
        {(Object.keys(COLOR_PRESETS) as ColorPreset[]).map((name) => {
          const pair = COLOR_PRESETS[name];
          const pressed = draft.color === pair.color && draft.background === pair.background;
          return (
            <button
              key={name}
              type="button"
              aria-pressed={pressed}
              onClick={() => setDraft((d) => ({ ...d, ...pair }))}
              className={cn('h-11 rounded-lg border border-input px-3 text-sm font-semibold', pressed && 'ring-2 ring-primary')}
              style={{ color: pair.color, backgroundColor: pair.background }}
            >
              {tc(`presets.${name}`)}
            </button>
          );
        })}
      </div>
      <div className="flex items-center gap-3">
        <input id={ids.color} type="color" className="h-11 w-16 rounded border border-input" value={draft.color} onChange={(e) => set('color', e.target.value)} />
        <label htmlFor={ids.color} className="text-sm font-medium text-fg-soft">
          {tc('textColor')}
        </label>
      </div>
      <div className="flex items-center gap-3">
        <input id={ids.background} type="color" className="h-11 w-16 rounded border border-input" value={draft.background} onChange={(e) => set('background', e.target.value)} />
        <label htmlFor={ids.background} className="text-sm font-medium text-fg-soft">
          {tc('backgroundColor')}
        </label>
      </div>
      <Slider
        label={tc('backgroundOpacity')}
        value={draft.backgroundOpacity}
        {...CAPTION_LIMITS.backgroundOpacity}
        step={0.05}
        shown={`${Math.round(draft.backgroundOpacity * 100)} %`}
        onChange={(v) => set('backgroundOpacity', v)}
      />
      <Select label={tc('edge')} value={draft.edge} onChange={(v) => set('edge', v as CaptionStyle['edge'])}>
        {CAPTION_EDGES.map((e) => (
          <option key={e} value={e}>
            {tc(`edges.${e}`)}
          </option>
        ))}
      </Select>
      <div role="status" style={WHOLE_ROW}>
        <p className={cn('text-sm font-semibold', low ? 'text-danger' : 'text-fg-soft')}>{tc('contrast', { ratio: shown })}</p>
        {low && <p className="mt-1 text-sm font-medium text-danger">{tc('lowContrast')}</p>}
      </div>
    </Group>
  );
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-3">
      <legend className="text-base font-semibold text-fg">{legend}</legend>
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

function Select({ label, value, onChange, children }: { label: string; value: string; onChange: (value: string) => void; children: ReactNode }) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-fg-soft">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={selectClasses}>
        {children}
      </select>
    </div>
  );
}

function Slider({
  label,
  value,
  min,
  max,
  step,
  shown,
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  shown: string;
  onChange: (value: number) => void;
}) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-fg-soft">
          {label}
        </label>
        {/* The slider says its value itself (aria-valuetext). */}
        <span aria-hidden="true" className="text-sm tabular-nums text-fg-muted">
          {shown}
        </span>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-valuetext={shown}
        onChange={(e) => onChange(Number(e.target.value))}
        className="h-11 w-full accent-indigo-600"
      />
    </div>
  );
}
