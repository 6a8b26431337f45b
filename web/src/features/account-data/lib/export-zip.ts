import { strToU8, zipSync, type Zippable } from 'fflate';
import { fileBaseName } from '../../../lib/transcript-export';
import type { CollectedExport, ExportedTranscription } from './collect-export';

const FOLDERS = { saved: 'saved-transcriptions', automatic: 'automatic-transcriptions' } as const;

/** A transcription's file name (without extension): its date, its title when it has one, and its id (unique). */
function baseName(t: ExportedTranscription): string {
  const title = 'title' in t.meta && t.meta.title ? ` ${t.meta.title}` : '';
  return fileBaseName(`${t.meta.createdAt.slice(0, 10)}${title} ${t.meta._id}`);
}

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

/**
 * The export as the files of one ZIP: `account.json` (profile, billing status, live links, settings
 * and the list of transcriptions), and per transcription a `.txt` holding exactly its text and a
 * `.json` with its metadata, text and timed segments, in a folder per kind.
 */
export function exportFiles(data: CollectedExport): Zippable {
  const files: Zippable = {
    'account.json': json({
      ...data.account,
      transcriptions: data.transcriptions.map((t) => ({ kind: t.kind, id: t.meta._id, file: `${FOLDERS[t.kind]}/${baseName(t)}` })),
    }),
  };
  for (const t of data.transcriptions) {
    const path = `${FOLDERS[t.kind]}/${baseName(t)}`;
    const { preview: _preview, ...meta } = t.meta;
    files[`${path}.txt`] = strToU8(t.text);
    files[`${path}.json`] = json({ kind: t.kind, ...meta, text: t.text, segments: t.segments });
  }
  return files;
}

/** The ZIP's bytes (deflated), and its file name with the day it was made. */
export function buildExportZip(data: CollectedExport): { bytes: Uint8Array; fileName: string } {
  return { bytes: zipSync(exportFiles(data), { level: 6 }), fileName: `live-transcribe-data-${data.account.exportedAt.slice(0, 10)}.zip` };
}
