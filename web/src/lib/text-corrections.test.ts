import { describe, expect, it } from 'vitest';
import { loadProfanityWords } from './profanity-words';
import { corrector, maskWord, phraseMatcher, profanityFilter, replacer, voiceCommands } from './text-corrections';
import { joinFor, joinsPrevious } from './text-join';

describe('word replacements', () => {
  it('replaces whole words only, in any case', () => {
    const fix = replacer([{ phrase: 'cat', replacement: 'Kat' }]);
    expect(fix('Cat and CAT and cat, category, bobcat')).toBe('Kat and Kat and Kat, category, bobcat');
  });

  it('matches a phrase across any white space, the longest phrase first', () => {
    const fix = replacer([
      { phrase: 'new york', replacement: 'NY' },
      { phrase: 'new  york   city', replacement: 'NYC' },
    ]);
    expect(fix('from new york city to New\u00a0York')).toBe('from NYC to NY');
  });

  it('keeps the first of two entries for one phrase, ignores empty phrases and reads regex characters literally', () => {
    const fix = replacer([
      { phrase: 'C++', replacement: 'C plus plus' },
      { phrase: 'c++', replacement: 'never' },
      { phrase: '  ', replacement: 'never' },
      { phrase: 'a.b', replacement: 'dot' },
    ]);
    expect(fix('c++ and axb and a.b')).toBe('C plus plus and axb and dot');
  });

  it('works in Latin with accents, Cyrillic, Greek, Arabic, Hebrew, Devanagari and Chinese', () => {
    const fix = replacer([
      { phrase: 'são paulo', replacement: 'SP' },
      { phrase: 'ÉCOLE', replacement: 'escola' },
      { phrase: 'москва', replacement: 'Moscow' },
      { phrase: 'αθήνα', replacement: 'Athens' },
      { phrase: 'كتاب', replacement: 'book' },
      { phrase: 'שלום', replacement: 'hello' },
      { phrase: 'नमस्ते', replacement: 'namaste' },
      { phrase: '北京', replacement: 'Beijing' },
    ]);
    expect(fix('SÃO PAULO, école')).toBe('SP, escola');
    expect(fix('Москва и москвичи')).toBe('Moscow и москвичи');
    expect(fix('ΑΘΉΝΑ')).toBe('Athens');
    // The whole word, not the same letters inside a longer one (with the article: الكتاب).
    expect(fix('هذا كتاب و الكتاب')).toBe('هذا book و الكتاب');
    expect(fix('שלום, שלומית')).toBe('hello, שלומית');
    expect(fix('नमस्ते दोस्त')).toBe('namaste दोस्त');
    // Chinese has no spaces between words: the phrase matches where it occurs.
    expect(fix('我住在北京市')).toBe('我住在Beijing市');
  });

  it('leaves text alone with an empty list', () => {
    expect(replacer([])('as said')).toBe('as said');
  });

  it('tells which phrase of the list matched', () => {
    const seen: [number, string][] = [];
    phraseMatcher(['b', 'a']).replace('A b', (i, m) => {
      seen.push([i, m]);
      return m;
    });
    expect(seen).toEqual([
      [1, 'A'],
      [0, 'b'],
    ]);
  });
});

describe('profanity mask', () => {
  const words = ['damn', 'bloody hell', 'merda'];

  it('masks each word as its first letter and asterisks, by characters', () => {
    expect(profanityFilter(words, 'mask')('Damn it, bloody hell! merda.')).toBe('D*** it, b***** ****! m****.');
    expect(maskWord('ñandú')).toBe('ñ****');
  });

  it('hides words and the space they leave, keeping line breaks', () => {
    expect(profanityFilter(words, 'hide')('damn that was\nbloody hell good')).toBe('that was\ngood');
  });

  it('is off by default and touches nothing else', () => {
    expect(profanityFilter(words, 'off')('damn')).toBe('damn');
    expect(profanityFilter(words, 'mask')('damnation')).toBe('damnation');
  });
});

describe('voice commands', () => {
  it('writes punctuation after the word before it and capitalizes after a full stop or question mark (en)', () => {
    const say = voiceCommands('en-US');
    expect(say('hello comma world full stop how are you question mark fine colon yes')).toBe('hello, world. How are you? Fine: yes');
  });

  it('breaks lines and paragraphs, taking the spaces around them', () => {
    expect(voiceCommands('en-GB')('first new paragraph second new line third')).toBe('first\n\nSecond\nThird');
  });

  it('knows Portuguese and Spanish commands', () => {
    expect(voiceCommands('pt-BR')('olá vírgula tudo bem ponto de interrogação sim ponto final novo parágrafo fim')).toBe('olá, tudo bem? Sim.\n\nFim');
    expect(voiceCommands('es-ES')('hola coma qué tal signo de interrogación bien dos puntos sí nueva línea adiós')).toBe('hola, qué tal? Bien: sí\nAdiós');
  });

  it('ignores a phrase that merely contains a command', () => {
    const say = voiceCommands('en-US');
    expect(say('the new paragraphs and the commander')).toBe('the new paragraphs and the commander');
  });

  it('leaves a result that starts with punctuation to join the one before it', () => {
    const text = voiceCommands('en-US')('comma and then');
    expect(text).toBe(', and then');
    expect(joinsPrevious(text)).toBe(true);
    expect(joinsPrevious('and then')).toBe(false);
  });

  it('does nothing in a language without commands', () => {
    expect(voiceCommands('ja-JP')('new paragraph')).toBe('new paragraph');
  });
});

describe('phrases with hyphens and the maintained word lists', () => {
  it('matches a hyphenated phrase (no escape the u flag refuses)', () => {
    expect(replacer([{ phrase: 'e-mail', replacement: 'email' }])('send an E-mail now')).toBe('send an email now');
    expect(profanityFilter(['g-spot'], 'mask')('the g-spot')).toBe('the g*****');
  });

  it.each(['en', 'pt', 'es', 'fr', 'ar', 'zh', 'ru'])('compiles the naughty-words list of %s', async (lang) => {
    const words = await loadProfanityWords(lang);
    expect(words.length).toBeGreaterThan(10);
    const mask = profanityFilter(words, 'mask');
    const first = words.find((w) => !/\s/u.test(w))!;
    expect(mask(`x ${first} y`)).not.toContain(first);
  });
});

describe('joinFor', () => {
  it('joins with the separator, or nothing at the start, around line breaks and before punctuation', () => {
    expect(joinFor(undefined, 'hello', ' ')).toBe('');
    expect(joinFor('hello', 'world', ' ')).toBe(' ');
    expect(joinFor('hello', ', world', ' ')).toBe('');
    expect(joinFor('hello', '\n\nworld', ' ')).toBe('');
    expect(joinFor('hello\n', 'world', ' ')).toBe('');
    expect(joinFor('你好', '世界', '')).toBe('');
  });
});

describe('corrector', () => {
  it('runs commands, then replacements, then the mask; compiled once for a language', () => {
    const correct = corrector(
      { voiceCommands: true, replacements: [{ phrase: 'comma', replacement: 'X' }, { phrase: 'heck', replacement: 'damn' }], profanity: 'mask' },
      'en-US',
      ['damn'],
    );
    expect(correct('oh heck comma fine')).toBe('oh d***, fine');
    expect(corrector({ voiceCommands: true, replacements: [], profanity: 'off' }, 'he-IL')('new line')).toBe('new line');
    expect(corrector({ voiceCommands: false, replacements: [], profanity: 'mask' }, 'en-US', [])('damn')).toBe('damn');
  });
});
