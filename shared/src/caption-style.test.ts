import { describe, expect, it } from 'vitest';
import { captionContrast, captionCss, COLOR_PRESETS, contrastRatio, DEFAULT_CAPTION_STYLE, MIN_CONTRAST, shownBackground } from './caption-style.ts';
import { captionStyle } from './schemas/caption-style.ts';

describe('contrast ratio (WCAG 2)', () => {
  it('is 21 for black on white, 1 for a colour on itself, the same either way round', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#FFFFFF', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
  });

  it('matches published values around the 4.5:1 line', () => {
    // #767676 on white is the lightest grey that passes AA; #777777 just fails.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(MIN_CONTRAST);
    expect(contrastRatio('#ff0000', '#ffffff')).toBeCloseTo(4, 1);
  });

  it('counts the background at its opacity over black', () => {
    expect(shownBackground({ background: '#ffffff', backgroundOpacity: 0.5 })).toBe('#808080');
    expect(shownBackground({ background: '#1e3a8a', backgroundOpacity: 1 })).toBe('#1e3a8a');
    // Black text on white at 0 opacity is black on black.
    expect(captionContrast({ color: '#000000', background: '#ffffff', backgroundOpacity: 0 })).toBe(1);
  });

  it('every preset pair passes', () => {
    for (const pair of Object.values(COLOR_PRESETS)) expect(contrastRatio(pair.color, pair.background)).toBeGreaterThanOrEqual(7);
  });
});

describe('captionCss', () => {
  it('maps type, colours and the lines kept to CSS properties', () => {
    const css = captionCss({ ...DEFAULT_CAPTION_STYLE, font: 'opendyslexic', size: 40, lineHeight: 1.5, letterSpacing: 0.1, weight: 700, uppercase: true, lines: 3, backgroundOpacity: 0.5, background: '#1e3a8a', color: '#fde047' });
    expect(css.block).toMatchObject({
      fontFamily: expect.stringMatching(/^OpenDyslexic, /),
      fontSize: '40px',
      lineHeight: 1.5,
      letterSpacing: '0.1em',
      fontWeight: 700,
      textTransform: 'uppercase',
      color: '#fde047',
      maxHeight: '4.8em',
      overflow: 'hidden',
      justifyContent: 'flex-end',
    });
    expect(css.area.backgroundColor).toBe('rgba(30, 58, 138, 0.5)');
  });

  it('places the block by position: lower third in the second of rows 2fr 1fr', () => {
    const at = (position: (typeof DEFAULT_CAPTION_STYLE)['position']) => captionCss({ ...DEFAULT_CAPTION_STYLE, position });
    expect(at('top').block).toMatchObject({ gridRow: 1, alignSelf: 'start' });
    expect(at('middle').block).toMatchObject({ gridRow: 1, alignSelf: 'center' });
    expect(at('bottom').block).toMatchObject({ gridRow: 1, alignSelf: 'end' });
    expect(at('lowerThird').area.gridTemplateRows).toBe('minmax(0, 2fr) minmax(0, 1fr)');
    expect(at('lowerThird').block).toMatchObject({ gridRow: 2, alignSelf: 'start' });
  });

  it('draws an edge of the opposite lightness, and dims or hides interim text', () => {
    expect(captionCss({ ...DEFAULT_CAPTION_STYLE, edge: 'none' }).block.textShadow).toBe('none');
    expect(captionCss({ ...DEFAULT_CAPTION_STYLE, edge: 'outline', color: '#ffffff' }).block.textShadow).toMatch(/#000000/);
    expect(captionCss({ ...DEFAULT_CAPTION_STYLE, edge: 'shadow', color: '#000000' }).block.textShadow).toMatch(/rgba\(255, 255, 255/);
    expect(captionCss({ ...DEFAULT_CAPTION_STYLE, interim: 'dimmed' }).interim).toEqual({ opacity: 0.7 });
    expect(captionCss({ ...DEFAULT_CAPTION_STYLE, interim: 'hidden' }).interim).toEqual({ display: 'none' });
  });
});

describe('the caption style schema', () => {
  it('takes the default and refuses unknown fields and values out of range', () => {
    expect(captionStyle.parse(DEFAULT_CAPTION_STYLE)).toEqual(DEFAULT_CAPTION_STYLE);
    expect(captionStyle.safeParse({ ...DEFAULT_CAPTION_STYLE, extra: 1 }).success).toBe(false);
    expect(captionStyle.safeParse({ ...DEFAULT_CAPTION_STYLE, color: '#ggg000' }).success).toBe(false);
    expect(captionStyle.safeParse({ ...DEFAULT_CAPTION_STYLE, lines: 13 }).success).toBe(false);
    expect(captionStyle.safeParse({ ...DEFAULT_CAPTION_STYLE, weight: 900 }).error?.issues[0]?.message).toMatch(/weight must be one of 400, 500/);
  });
});
