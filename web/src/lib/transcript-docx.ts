import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { textDirection } from '@app/shared/constants';
import { baseLanguage } from './base-language';
import { formatDateTime } from './format-date-time';
import { transcriptText, type ExportDocument } from './transcript-export';

/**
 * A transcript as a Word document: its title (a heading), its date, then its text, a paragraph
 * per block of text separated by a blank line, a single newline breaking the line within one.
 * Only `transcript-export` loads this module, when a Word file is asked for: the docx library
 * then comes in a chunk of its own, never in a route's first load.
 */

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The text's paragraphs, each as its lines: blocks split at blank lines, lines at single newlines. */
export function transcriptParagraphs(text: string): string[][] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n\s*/)
    .map((block) => block.replace(/^\n+|\n+$/g, ''))
    .filter((block) => block.trim())
    .map((block) => block.split('\n'));
}

/** Languages Word sets in its East Asian fonts (the run's `eastAsia` language): Chinese, Cantonese, Japanese, Korean. */
const EAST_ASIAN: ReadonlySet<string> = new Set(['zh', 'yue', 'ja', 'ko']);

/** Whether the first letter of `text` is of a right-to-left script: what `dir="auto"` decides from, for a title in any language. */
const startsRightToLeft = (text: string) => /^[^\p{L}]*[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Thaana}\p{Script=Syriac}\p{Script=Nko}\p{Script=Adlam}]/u.test(text);

export function buildDocument(doc: ExportDocument): Document {
  const language = doc.language ?? doc.uiLanguage;
  // Left to right is Word's default: said only when right to left (`true` or nothing, never `false`).
  const rtl = textDirection(doc.language) === 'rtl' || undefined;
  const titleRtl = startsRightToLeft(doc.title) || undefined;
  const body = transcriptParagraphs(transcriptText(doc)).map(
    (lines) =>
      new Paragraph({
        bidirectional: rtl,
        children: lines.map((line, i) => new TextRun({ text: line, break: i > 0 ? 1 : undefined, rightToLeft: rtl })),
      }),
  );
  return new Document({
    title: doc.title,
    styles: {
      default: {
        document: {
          run: {
            language: {
              value: language,
              ...(rtl && { bidirectional: language }),
              ...(EAST_ASIAN.has(baseLanguage(language)) && { eastAsia: language }),
            },
          },
        },
      },
    },
    sections: [
      {
        children: [
          new Paragraph({
            heading: HeadingLevel.TITLE,
            bidirectional: titleRtl,
            children: [new TextRun({ text: doc.title, rightToLeft: titleRtl })],
          }),
          new Paragraph({
            spacing: { after: 240 },
            children: [new TextRun({ text: formatDateTime(doc.createdAt, doc.uiLanguage), language: { value: doc.uiLanguage } })],
          }),
          ...body,
        ],
      },
    ],
  });
}

/** The .docx file's bytes. */
export async function buildDocx(doc: ExportDocument): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await Packer.toArrayBuffer(buildDocument(doc)));
}

export async function buildDocxBlob(doc: ExportDocument): Promise<Blob> {
  return new Blob([await buildDocx(doc)], { type: DOCX_MIME });
}
