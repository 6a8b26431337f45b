/** What the list is filtered by (as applied, not as typed). */
export interface HistoryFilters {
  search: string;
  /** YYYY-MM, or '' for every month. */
  month: string;
}

/** Query keys of saved transcriptions, by factory: a delete invalidates `lists()`, every filter at once. */
export const historyKeys = {
  all: ['history'] as const,
  lists: () => [...historyKeys.all, 'list'] as const,
  list: (filters: HistoryFilters) => [...historyKeys.lists(), filters] as const,
  details: () => [...historyKeys.all, 'detail'] as const,
  detail: (id: string) => [...historyKeys.details(), id] as const,
};
