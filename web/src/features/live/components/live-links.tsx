import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/mutation';
import type { LiveLink } from '@app/shared/schemas/live';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { api } from '../../../lib/api';
import { currentUiLanguage } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { liveKeys } from '../api/live-viewers';
import { useLiveT } from '../i18n';

const time = (iso: string) => new Intl.DateTimeFormat(currentUiLanguage(), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));

/**
 * The profile's list of the user's live links that have not expired (live or ended), each with
 * Stop while it is live, and Stop all: a link shared from another device, or left running, can
 * be ended from here. Shown to Pro users, and to anyone who still has a link.
 */
export default function LiveLinks({ isPro }: { isPro: boolean }) {
  const tl = useLiveT();
  const headingId = useId();
  const queryClient = useQueryClient();
  const links = useQuery({ queryKey: liveKeys.links(), queryFn: ({ signal }) => api('listLiveShares', { signal }), select: (d) => d.links });
  const [stopping, setStopping] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: liveKeys.links() });
  const stopOne = useMutation({
    mutationFn: (code: string) => api('stopLiveShare', { params: { code } }),
    onMutate: (code) => setStopping(code),
    onError: () => toast.error(tl('links.stopFailed')),
    onSettled: async () => {
      await refresh();
      setStopping(null);
    },
  });
  const stopAll = useMutation({
    mutationFn: () => api('stopAllLiveShares'),
    onSuccess: ({ stopped }) => toast.success(tl('links.stoppedAll', { count: stopped })),
    onError: () => toast.error(tl('links.stopFailed')),
    onSettled: refresh,
  });

  const list = links.data ?? [];
  if (!isPro && list.length === 0) return null;
  const live = list.filter((l) => l.status === 'live');

  return (
    <section aria-labelledby={headingId}>
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id={headingId} className="text-lg font-semibold text-fg">
              {tl('links.title')}
            </h2>
            <p className="mt-1 text-sm text-fg-muted">{tl('links.intro')}</p>
          </div>
          {live.length > 1 && (
            <Button variant="danger" size="sm" onClick={() => stopAll.mutate()} loading={stopAll.isPending}>
              {tl('links.stopAll')}
            </Button>
          )}
        </div>
        <div className="mt-5">
          {links.isPending && (
            <p role="status" className="flex items-center gap-2 text-sm text-fg-muted">
              <Spinner /> {tl('links.loading')}
            </p>
          )}
          {links.isError && (
            <p role="alert" className="text-sm text-danger">
              {tl('links.loadFailed')}
            </p>
          )}
          {links.isSuccess && list.length === 0 && <p className="text-sm text-fg-muted">{tl('links.empty')}</p>}
          {list.length > 0 && (
            <ul className="divide-y divide-border">
              {list.map((link) => (
                <LinkRow key={link.code} link={link} onStop={() => stopOne.mutate(link.code)} stopping={stopping === link.code} />
              ))}
            </ul>
          )}
        </div>
      </Card>
    </section>
  );
}

function LinkRow({ link, onStop, stopping }: { link: LiveLink; onStop: () => void; stopping: boolean }) {
  const tl = useLiveT();
  const path = `/live/${link.code}`;
  const isLive = link.status === 'live';
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2">
          <span
            className={
              isLive
                ? 'rounded-full bg-danger-solid px-2 py-0.5 text-xs font-semibold text-fg-inverse'
                : 'rounded-full bg-surface-muted px-2 py-0.5 text-xs font-semibold text-fg-muted'
            }
          >
            {tl(isLive ? 'links.live' : 'links.ended')}
          </span>
          <code className="truncate text-sm text-fg">{path}</code>
        </p>
        <p className="mt-1 text-xs text-fg-muted">{tl('links.times', { started: time(link.createdAt), until: time(link.expiresAt) })}</p>
      </div>
      {isLive && (
        <Button variant="secondary" size="sm" onClick={onStop} loading={stopping} aria-label={tl('links.stopOne', { path })}>
          {tl('links.stop')}
        </Button>
      )}
    </li>
  );
}
