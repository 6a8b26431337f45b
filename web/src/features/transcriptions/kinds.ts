import type { RouteResponse } from '@app/shared/routes';

/**
 * A transcription is saved (by a Pro user, with a title) or automatic (written by autosave while
 * any logged-in user speaks): the same list, detail and delete, each kind on its own routes. Each
 * kind's copy is the locale section of the same name (`saved.*`, `automatic.*`).
 */
export type TranscriptionKind = 'saved' | 'automatic';

interface Responses {
  saved: { page: RouteResponse<'listTranscriptions'>; detail: RouteResponse<'getTranscription'> };
  automatic: { page: RouteResponse<'listAutomaticTranscriptions'>; detail: RouteResponse<'getAutomaticTranscription'> };
}
export type TranscriptionPage<K extends TranscriptionKind> = Responses[K]['page'];
export type TranscriptionSummaryOf<K extends TranscriptionKind> = TranscriptionPage<K>['transcriptions'][number];
export type TranscriptionDetailOf<K extends TranscriptionKind> = Responses[K]['detail'];
