import { describe, expect, it } from 'vitest';
import { DEFAULT_CAPTION_STYLE } from '@app/shared/caption-style';
import { overlayStyle, parseOverlayQuery } from './overlay-query';

describe('parseOverlayQuery', () => {
  it('reads every supported setting', () => {
    expect(
      parseOverlayQuery(
        '?font=atkinson&size=64&weight=700&color=%23FDE047&bg=1e3a8a&opacity=0.5&lines=2&position=lower-third&align=center&uppercase=1&edge=shadow',
      ),
    ).toEqual({
      font: 'atkinson',
      size: 64,
      weight: 700,
      color: '#fde047',
      background: '#1e3a8a',
      backgroundOpacity: 0.5,
      lines: 2,
      position: 'lowerThird',
      align: 'center',
      uppercase: true,
      edge: 'shadow',
    });
  });

  it('takes the other spellings: transparent background, left/right, outline and shadow flags', () => {
    expect(parseOverlayQuery('bg=transparent&opacity=1&align=right&outline=true&position=top&uppercase=false')).toEqual({
      backgroundOpacity: 0,
      align: 'end',
      edge: 'outline',
      position: 'top',
      uppercase: false,
    });
    expect(parseOverlayQuery('shadow=1').edge).toBe('shadow');
    expect(parseOverlayQuery('outline=0').edge).toBe('none');
    expect(parseOverlayQuery('align=left').align).toBe('start');
  });

  it('ignores unknown names and bad values', () => {
    const bad = [
      'font=comic',
      'size=8',
      'size=1000',
      'size=52px',
      'size=-40',
      'weight=450',
      'color=red',
      'color=%23fff',
      'bg=blue',
      'opacity=2',
      'opacity=-0.5',
      'opacity=abc',
      'lines=0',
      'lines=13',
      'lines=2.5',
      'position=left',
      'position=constructor',
      'position=__proto__',
      'align=justify',
      'align=constructor',
      'uppercase=maybe',
      'edge=glow',
      'theme=dark',
      'size',
      '%E0%A4%A',
    ];
    for (const query of bad) expect(parseOverlayQuery(query), query).toEqual({});
  });

  it('lays the overrides over the speaker style, leaving the rest', () => {
    const style = overlayStyle(DEFAULT_CAPTION_STYLE, parseOverlayQuery('lines=2&size=40'));
    expect(style).toEqual({ ...DEFAULT_CAPTION_STYLE, lines: 2, size: 40 });
  });
});
