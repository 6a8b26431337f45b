import { joinsWithoutSpaces, textDirection, type RecognitionLanguage } from '@app/shared/constants';
import { graphemeCount, graphemes, lineTokens } from '@app/shared/text-segments';
import type { Segment } from '@app/shared/schemas/transcriptions';
import type { ExportFormat } from './export-formats';
import { joinFor, joinsPrevious } from './text-join';

/**
 * Transcript export: plain text, SubRip (SRT) and WebVTT, built in the browser
 * from timed segments, and Word (.docx), built by `transcript-docx`, which loads
 * (with the docx library) only when a Word file is asked for. Pure functions,
 * except `exportFile`, which hands the result to the browser as a download.
 */

export interface ExportableTranscript {
  text: string;
  segments: readonly Segment[];
  language?: RecognitionLanguage | null | undefined;
}

/** A transcript with what a document format (Word) prints above the text. */
export interface ExportDocument extends ExportableTranscript {
  /** The transcription's title; the caller puts "Transcription" in the UI language when it has none. */
  title: string;
  /** When the transcription was made (ISO), printed in the UI language's format. */
  createdAt: string;
  /** The language of the interface: the date's, and the document's when the transcript has none. */
  uiLanguage: string;
}


export interface Cue {
  startMs: number;
  endMs: number;
  /** One or two lines, each at most CUE_LINE_MAX characters. */
  lines: string[];
}

/** Subtitle conventions: 42 characters a line, 2 lines a cue, a new cue after 2 s of silence. */
export const CUE_LINE_MAX = 42;
export const CUE_LINES_MAX = 2;
export const CUE_SILENCE_MS = 2_000;
/** A cue shorter than this is held on screen longer, up to the next cue. */
const CUE_MIN_MS = 700;
/** Speech rate assumed for a transcript that has text but no timed segments (~150 words a minute). */
const FALLBACK_MS_PER_CHAR = 65;

interface Token {
  text: string;
  /** User-perceived characters in `text` (what the 42-character limit counts). */
  size: number;
  /** Whether a space separates it from the previous token on the same line. */
  spaced: boolean;
  startMs: number;
  endMs: number;
}

/**
 * Splits one segment's text into the tokens a line breaks between (`lineTokens`: words with their
 * punctuation, by the language's word boundaries, so Chinese, Japanese or Thai break between
 * words though no space separates them). Line and paragraph breaks are white space like any other;
 * a segment that starts with punctuation joins the word before it, and in a language written
 * without spaces every segment does. A token longer than a line (a URL) is cut into line-sized
 * pieces, never inside a character.
 */
function tokenize(text: string, language: string | null | undefined): { text: string; spaced: boolean }[] {
  const out: { text: string; spaced: boolean }[] = [];
  const joins = joinsPrevious(text) || joinsWithoutSpaces(language);
  for (const token of lineTokens(text, language)) {
    const spaced = out.length === 0 ? !joins : token.spaced;
    const chars = graphemes(token.text);
    for (let i = 0; i < chars.length; i += CUE_LINE_MAX) {
      out.push({ text: chars.slice(i, i + CUE_LINE_MAX).join(''), spaced: i === 0 && spaced });
    }
  }
  return out;
}

/** Tokens of one segment, each with a share of the segment's time proportional to its characters. */
function timedTokens(segment: Segment, language: string | null | undefined): Token[] {
  const raw = tokenize(segment.text, language);
  const sizes = raw.map((t) => graphemeCount(t.text));
  const total = sizes.reduce((a, b) => a + b, 0);
  const start = segment.startMs;
  const duration = Math.max(0, segment.endMs - segment.startMs);
  let before = 0;
  return raw.map((t, i) => {
    const size = sizes[i]!;
    const token: Token = {
      text: t.text,
      size,
      spaced: t.spaced,
      startMs: start + Math.round((duration * before) / total),
      endMs: start + Math.round((duration * (before + size)) / total),
    };
    before += size;
    return token;
  });
}

/**
 * Subtitle cues from timed segments: consecutive segments share cues unless
 * more than CUE_SILENCE_MS of silence separates them; lines fill up to
 * CUE_LINE_MAX characters, cues up to CUE_LINES_MAX lines. A segment split
 * over several cues lends each cue time in proportion to its characters.
 */
export function buildCues(t: ExportableTranscript): Cue[] {
  const segments = timedSegments(t);
  const cues: Cue[] = [];

  let lines: string[] = [];
  let line = '';
  let lineSize = 0;
  let cueStart = 0;
  let cueEnd = 0;
  let open = false;

  const closeCue = () => {
    if (line) lines.push(line);
    if (lines.length > 0) cues.push({ startMs: cueStart, endMs: cueEnd, lines });
    lines = [];
    line = '';
    lineSize = 0;
    open = false;
  };

  let previousEnd: number | undefined;
  for (const segment of segments) {
    if (!segment.text.trim()) continue;
    if (open && previousEnd !== undefined && segment.startMs - previousEnd > CUE_SILENCE_MS) closeCue();
    previousEnd = segment.endMs;
    for (const token of timedTokens(segment, t.language)) {
      let gap = line && token.spaced ? 1 : 0;
      if (line && lineSize + gap + token.size > CUE_LINE_MAX) {
        lines.push(line);
        line = '';
        lineSize = 0;
        gap = 0;
        if (lines.length >= CUE_LINES_MAX) closeCue();
      }
      if (!open) {
        open = true;
        cueStart = token.startMs;
      }
      line += gap ? ` ${token.text}` : token.text;
      lineSize += gap + token.size;
      cueEnd = token.endMs;
    }
  }
  closeCue();
  return settleTimes(cues);
}

/** The segments to build from; text without segments gets one synthetic segment at a normal speech rate. */
function timedSegments(t: ExportableTranscript): readonly Segment[] {
  if (t.segments.length > 0) return t.segments;
  const text = t.text.trim();
  if (!text) return [];
  return [{ text, startMs: 0, endMs: graphemeCount(text) * FALLBACK_MS_PER_CHAR }];
}

/** Cues in order, never overlapping, each on screen at least CUE_MIN_MS when the next cue allows. */
function settleTimes(cues: Cue[]): Cue[] {
  for (let i = 0; i < cues.length; i++) {
    const cue = cues[i]!;
    const previous = cues[i - 1];
    if (previous && cue.startMs < previous.endMs) cue.startMs = previous.endMs;
    if (cue.endMs < cue.startMs) cue.endMs = cue.startMs;
  }
  for (let i = 0; i < cues.length; i++) {
    const cue = cues[i]!;
    const nextStart = cues[i + 1]?.startMs ?? Number.POSITIVE_INFINITY;
    if (cue.endMs - cue.startMs < CUE_MIN_MS) cue.endMs = Math.max(cue.endMs, Math.min(cue.startMs + CUE_MIN_MS, nextStart));
  }
  return cues;
}

/** `HH:MM:SS,mmm` (SRT) or `HH:MM:SS.mmm` (VTT). Hours never wrap: 100 hours print as `100:00:00,000`. */
export function formatCueTime(ms: number, separator: ',' | '.'): string {
  const total = Math.max(0, Math.round(ms));
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = Math.floor((total % 60_000) / 1000);
  const millis = total % 1000;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}${separator}${pad(millis, 3)}`;
}

/**
 * The transcript's text, trimmed, paragraphs and line breaks kept; the segments' text (joined as
 * the transcript joins them) when the text is empty. Every file format exports this text.
 */
export function transcriptText(t: ExportableTranscript): string {
  return t.text.trim() || joinSegments(t.segments, joinsWithoutSpaces(t.language) ? '' : ' ').trim();
}

/** RIGHT-TO-LEFT MARK: a strong right-to-left character that shows nothing. */
export const RLM = '\u200f';
/** The first letter of a line, when it is of a right-to-left script. */
const STARTS_RTL = /^[^\p{L}]*[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Thaana}\p{Script=Syriac}\p{Script=Nko}\p{Script=Adlam}]/u;

/**
 * Lines of a right-to-left transcript as a reader shows them right to left. Players and editors
 * take a line's direction from its first letter, so an Arabic line that starts with a Latin word
 * ("iPhone جديد.") would read left to right, its full stop on the wrong side: such a line starts
 * with a RIGHT-TO-LEFT MARK. `always`: every line gets one (subtitle players, some of which set
 * every cue left to right); otherwise only the lines that need it, so the text stays as written.
 */
function rightToLeft(lines: string[], t: ExportableTranscript, always: boolean): string[] {
  if (textDirection(t.language) !== 'rtl') return lines;
  return lines.map((line) => (line && (always || !STARTS_RTL.test(line)) ? RLM + line : line));
}

/**
 * The plain text, ending in a newline. Falls back to the segments when the text is empty. In a
 * right-to-left language a line that starts with a left-to-right word starts with a RIGHT-TO-LEFT MARK.
 */
export function buildTxt(t: ExportableTranscript): string {
  const text = transcriptText(t);
  return text ? `${rightToLeft(text.split('\n'), t, false).join('\n')}\n` : '';
}

function joinSegments(segments: readonly Segment[], separator: string): string {
  let out = '';
  let previous: string | undefined;
  for (const s of segments) {
    const text = s.text.replace(/^[^\S\n]+|[^\S\n]+$/gu, '');
    if (!text.trim()) continue;
    out += joinFor(previous, text, separator) + text;
    previous = text;
  }
  return out;
}

/** SubRip: numbered cues; in a right-to-left language every line starts with a RIGHT-TO-LEFT MARK. */
export function buildSrt(t: ExportableTranscript): string {
  return buildCues(t)
    .map((cue, i) => `${i + 1}\n${formatCueTime(cue.startMs, ',')} --> ${formatCueTime(cue.endMs, ',')}\n${rightToLeft(cue.lines, t, true).join('\n')}\n`)
    .join('\n');
}

/** WebVTT cue text: `&`, `<` and `>` escaped, and never the `-->` arrow. */
const vttText = (line: string) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** WebVTT: cues after the header; in a right-to-left language every line starts with a RIGHT-TO-LEFT MARK. */
export function buildVtt(t: ExportableTranscript): string {
  const cues = buildCues(t).map(
    (cue) => `${formatCueTime(cue.startMs, '.')} --> ${formatCueTime(cue.endMs, '.')}\n${rightToLeft(cue.lines.map(vttText), t, true).join('\n')}\n`,
  );
  return ['WEBVTT\n', ...cues].join('\n');
}

type TextFormat = Exclude<ExportFormat, 'docx'>;

const builders: Record<TextFormat, (t: ExportableTranscript) => string> = { txt: buildTxt, srt: buildSrt, vtt: buildVtt };
const mimeTypes: Record<TextFormat, string> = {
  txt: 'text/plain;charset=utf-8',
  srt: 'application/x-subrip;charset=utf-8',
  vtt: 'text/vtt;charset=utf-8',
};

/** A file name from a title: no path or reserved characters, at most 80 characters, never empty. */
export function fileBaseName(name: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    // Leading dots hide a file, trailing dots and spaces are invalid on Windows.
    .replace(/^[\s.]+|[\s.]+$/g, '');
  return Array.from(cleaned).slice(0, 80).join('').trim() || 'transcript';
}

/** The file's contents as text (for tests and for callers that upload rather than download). */
export function buildExport(format: TextFormat, t: ExportableTranscript): string {
  return builders[format](t);
}

/**
 * Builds the file and hands it to the browser as a download named `<baseName>.<format>`. The
 * text formats download at once; Word first loads its builder, and rejects when it cannot (offline
 * after a new deploy).
 */
export async function exportFile(format: ExportFormat, doc: ExportDocument, baseName: string): Promise<void> {
  const blob =
    format === 'docx'
      ? await import('./transcript-docx').then(({ buildDocxBlob }) => buildDocxBlob(doc))
      : new Blob([buildExport(format, doc)], { type: mimeTypes[format] });
  download(blob, `${fileBaseName(baseName)}.${format}`);
}

/** Hands a blob to the browser as a download named `fileName`. */
export function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click returns: revoke a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
