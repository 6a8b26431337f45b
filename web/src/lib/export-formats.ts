/**
 * The file formats a transcript exports to, in the order every export control offers them, and
 * the name each control shows (its accessible name says "Download …" in the UI language). Apart
 * from the builders in `transcript-export`, so a control can list them without loading those.
 */
export const EXPORT_FORMATS = ['txt', 'srt', 'vtt', 'docx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = { txt: 'TXT', srt: 'SRT', vtt: 'VTT', docx: 'Word (.docx)' };
