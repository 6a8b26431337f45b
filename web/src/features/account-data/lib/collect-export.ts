import type { ExportAccountResponse, ExportKind, ExportListResponse, ExportTextResponse } from '@app/shared/schemas/account';
import { EXPORT_KINDS } from '@app/shared/schemas/account';
import { api, ApiError } from '../../../lib/api';

type Summary = ExportListResponse['items'][number];

/** One transcription as exported: its metadata, its whole text, and its segments with their text. */
export interface ExportedTranscription {
  kind: ExportKind;
  meta: Summary;
  text: string;
  segments: { startMs: number; endMs: number; text: string }[];
}

export interface CollectedExport {
  account: ExportAccountResponse;
  transcriptions: ExportedTranscription[];
}

/** How many transcriptions' texts are read at once. */
const PARALLEL = 4;
/** A text that changes while it is read (an edit elsewhere) is read again, at most this often. */
const MAX_RESTARTS = 3;

async function listAll(kind: ExportKind, signal?: AbortSignal): Promise<Summary[]> {
  const items: Summary[] = [];
  let cursor: string | null = null;
  do {
    const page: ExportListResponse = await api('exportTranscriptions', { query: { kind, ...(cursor ? { cursor } : {}) }, signal });
    items.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return items;
}

/** A transcription's whole text, page by page, all of one version (read again from the start when it changed). */
async function readText(kind: ExportKind, id: string, signal?: AbortSignal): Promise<Pick<ExportedTranscription, 'text' | 'segments'>> {
  for (let attempt = 0; ; attempt++) {
    try {
      const parts: string[] = [];
      const stored: [number, number, number, number][] = [];
      let from: number | null = 0;
      let version: number | undefined;
      while (from !== null) {
        const page: ExportTextResponse = await api('exportTranscriptionText', { params: { kind, id }, query: { from, ...(version === undefined ? {} : { version }) }, signal });
        version = page.version;
        parts.push(page.text);
        stored.push(...page.segments);
        from = page.next;
      }
      const text = parts.join('');
      return { text, segments: stored.map(([startMs, endMs, at, len]) => ({ startMs, endMs, text: text.slice(at, at + len) })) };
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'version_conflict') || attempt >= MAX_RESTARTS) throw err;
    }
  }
}

/**
 * Reads everything the account holds through the export routes, a small request at a time: the
 * account's own part, each kind's list, then each text (a few at once). `onProgress` hears how
 * many transcriptions are done of how many.
 */
export async function collectExport(onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<CollectedExport> {
  const account = await api('exportAccount', { signal });
  const listed = (await Promise.all(EXPORT_KINDS.map(async (kind) => (await listAll(kind, signal)).map((meta) => ({ kind, meta }))))).flat();
  const transcriptions: ExportedTranscription[] = new Array(listed.length);
  let next = 0;
  let done = 0;
  onProgress?.(0, listed.length);
  const worker = async () => {
    while (next < listed.length) {
      const index = next++;
      const { kind, meta } = listed[index]!;
      transcriptions[index] = { kind, meta, ...(await readText(kind, meta._id, signal)) };
      onProgress?.(++done, listed.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, listed.length) }, worker));
  return { account, transcriptions };
}
