import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildDocx, DOCX_MIME, transcriptParagraphs } from './transcript-docx';
import { exportFile, type ExportDocument } from './transcript-export';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const CREATED_AT = '2025-03-10T12:00:00.000Z';

/** The .docx built for `doc`, unzipped: its parts as parsed XML. */
async function docxParts(doc: ExportDocument) {
  const files = unzipSync(await buildDocx(doc));
  const xml = (name: string) => new DOMParser().parseFromString(strFromU8(files[name]!), 'application/xml');
  return { document: xml('word/document.xml'), styles: xml('word/styles.xml'), core: xml('docProps/core.xml') };
}

const all = (node: Document | Element, name: string) => Array.from(node.getElementsByTagNameNS(W, name));
const attr = (el: Element | undefined, name: string) => el?.getAttributeNS(W, name) ?? null;

/** Each paragraph of the body: its text, with "|" where a line breaks. */
const paragraphTexts = (document: Document) =>
  all(document, 'p').map((p) =>
    all(p, 'r')
      .map((r) => (all(r, 'br').length ? '|' : '') + all(r, 't').map((t) => t.textContent).join(''))
      .join(''),
  );

const mediumDate = (iso: string, uiLanguage: string) =>
  new Intl.DateTimeFormat(uiLanguage, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const english: ExportDocument = {
  title: 'Team meeting',
  createdAt: CREATED_AT,
  uiLanguage: 'en',
  language: 'en-US',
  text: 'We met at nine.\nEveryone came.\n\nThe budget is approved.',
  segments: [],
};

describe('transcriptParagraphs', () => {
  it('splits paragraphs at blank lines and lines at single newlines', () => {
    expect(transcriptParagraphs('one\ntwo\n\nthree')).toEqual([['one', 'two'], ['three']]);
  });

  it('reads Windows newlines, several blank lines and blank lines holding spaces as one paragraph break', () => {
    expect(transcriptParagraphs('\n\none\r\ntwo\r\n\r\n\r\nthree\n  \t\nfour\n\n')).toEqual([['one', 'two'], ['three'], ['four']]);
  });

  it('makes no paragraph of empty text', () => {
    expect(transcriptParagraphs('')).toEqual([]);
    expect(transcriptParagraphs(' \n\n \n')).toEqual([]);
  });
});

describe('buildDocx', () => {
  it('holds the title as a heading, the date, then each paragraph in order with its line break', async () => {
    const { document, core } = await docxParts(english);
    expect(paragraphTexts(document)).toEqual([
      'Team meeting',
      mediumDate(CREATED_AT, 'en'),
      'We met at nine.|Everyone came.',
      'The budget is approved.',
    ]);
    const [title] = all(document, 'p');
    expect(attr(all(title!, 'pStyle')[0], 'val')).toBe('Title');
    // The break sits between the two lines of the first paragraph.
    const first = all(document, 'p')[2]!;
    expect(all(first, 'br')).toHaveLength(1);
    expect(all(first, 'r').map((r) => all(r, 'br').length)).toEqual([0, 1]);
    expect(core.getElementsByTagName('dc:title')[0]?.textContent).toBe('Team meeting');
  });

  it('an English transcript is left to right: no bidi paragraph, no right-to-left run', async () => {
    const { document, styles } = await docxParts(english);
    expect(all(document, 'bidi')).toEqual([]);
    expect(all(document, 'rtl')).toEqual([]);
    const lang = all(all(styles, 'docDefaults')[0]!, 'lang')[0];
    expect(attr(lang, 'val')).toBe('en-US');
    expect(attr(lang, 'bidi')).toBeNull();
  });

  it.each([
    ['ar-SA', 'اجتماع الفريق', 'بدأنا في التاسعة.\nحضر الجميع.\n\nتمت الموافقة على الميزانية.'],
    ['he-IL', 'ישיבת צוות', 'התחלנו בתשע.\nכולם הגיעו.\n\nהתקציב אושר.'],
    ['fa-IR', 'جلسه تیم', 'ساعت نه شروع کردیم.\nهمه آمدند.\n\nبودجه تصویب شد.'],
    ['ur-PK', 'ٹیم کی میٹنگ', 'ہم نے نو بجے شروع کیا۔\nسب آئے۔\n\nبجٹ منظور ہو گیا۔'],
  ] as const)('a %s transcript is right to left: w:bidi on its paragraphs, w:rtl on their runs', async (language, title, text) => {
    const { document, styles } = await docxParts({ ...english, language, title, text });
    const [titleParagraph, date, ...body] = all(document, 'p');
    expect(body).toHaveLength(2);
    for (const p of body) {
      expect(all(p, 'bidi')).toHaveLength(1);
      expect(all(p, 'r').map((r) => all(r, 'rtl').length)).toEqual(all(p, 'r').map(() => 1));
    }
    expect(all(body[0]!, 'r')).toHaveLength(2);
    // A title in the transcript's script reads right to left too; the date, in the UI language, does not.
    expect(all(titleParagraph!, 'bidi')).toHaveLength(1);
    expect(all(date!, 'bidi')).toEqual([]);
    expect(all(date!, 'rtl')).toEqual([]);
    const lang = all(all(styles, 'docDefaults')[0]!, 'lang')[0];
    expect([attr(lang, 'val'), attr(lang, 'bidi')]).toEqual([language, language]);
  });

  it.each(['ja-JP', 'ko-KR', 'zh-TW', 'yue-Hant-HK'] as const)('a %s transcript names its language for East Asian text', async (language) => {
    const { styles } = await docxParts({ ...english, language });
    const lang = all(all(styles, 'docDefaults')[0]!, 'lang')[0];
    expect([attr(lang, 'val'), attr(lang, 'eastAsia'), attr(lang, 'bidi')]).toEqual([language, language, null]);
  });

  it('dates in the UI language, which is the document language when the transcript has none', async () => {
    const { document, styles } = await docxParts({ ...english, language: null, uiLanguage: 'pt', title: 'Transcrição' });
    expect(paragraphTexts(document).slice(0, 2)).toEqual(['Transcrição', mediumDate(CREATED_AT, 'pt')]);
    expect(mediumDate(CREATED_AT, 'pt')).not.toBe(mediumDate(CREATED_AT, 'en'));
    expect(attr(all(all(styles, 'docDefaults')[0]!, 'lang')[0], 'val')).toBe('pt');
  });

  it('falls back to the segments when the text is empty, as the other formats do', async () => {
    const { document } = await docxParts({ ...english, text: '  ', segments: [{ text: 'From', startMs: 0, endMs: 500 }, { text: 'segments.', startMs: 500, endMs: 900 }] });
    expect(paragraphTexts(document).slice(2)).toEqual(['From segments.']);
  });
});

describe('exportFile as Word', () => {
  afterEach(() => vi.restoreAllMocks());

  it('downloads a .docx named like the other exports', async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      created.push(b as Blob);
      return 'blob:test';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    await exportFile('docx', english, 'Aula: 1/2');
    expect(names).toEqual(['Aula 1 2.docx']);
    expect(created[0]!.type).toBe(DOCX_MIME);
    const files = unzipSync(new Uint8Array(await created[0]!.arrayBuffer()));
    expect(strFromU8(files['word/document.xml']!)).toContain('The budget is approved.');
  });
});
