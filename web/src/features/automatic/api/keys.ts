export type CompletionFilter = 'all' | 'finished' | 'inProgress';

/** What the list is filtered by (as applied). */
export interface AutomaticFilters {
  search: string;
  /** YYYY-MM, or '' for every month. */
  month: string;
  status: CompletionFilter;
}

/** Query keys of automatic transcriptions, by factory: a delete invalidates `lists()`. */
export const automaticKeys = {
  all: ['automatic'] as const,
  lists: () => [...automaticKeys.all, 'list'] as const,
  list: (filters: AutomaticFilters) => [...automaticKeys.lists(), filters] as const,
  details: () => [...automaticKeys.all, 'detail'] as const,
  detail: (id: string) => [...automaticKeys.details(), id] as const,
};
