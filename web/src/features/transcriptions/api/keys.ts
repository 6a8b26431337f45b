import type { TranscriptionKind } from '../kinds';

export type CompletionFilter = 'all' | 'finished' | 'inProgress';

/** What a list is filtered by (as applied, not as typed). */
export interface TranscriptionFilters {
  search: string;
  /** YYYY-MM, or '' for every month. */
  month: string;
  /** Automatic transcriptions only: finished, in progress, or both. */
  status?: CompletionFilter;
}

/** Query keys of transcriptions, by factory: a delete invalidates its kind's `lists()`, every filter at once. */
export const transcriptionKeys = {
  all: ['transcriptions'] as const,
  kind: (kind: TranscriptionKind) => [...transcriptionKeys.all, kind] as const,
  lists: (kind: TranscriptionKind) => [...transcriptionKeys.kind(kind), 'list'] as const,
  list: (kind: TranscriptionKind, filters: TranscriptionFilters) => [...transcriptionKeys.lists(kind), filters] as const,
  details: (kind: TranscriptionKind) => [...transcriptionKeys.kind(kind), 'detail'] as const,
  detail: (kind: TranscriptionKind, id: string) => [...transcriptionKeys.details(kind), id] as const,
};
