import { useId, useState, type FormEvent } from 'react';
import { CAPTION_DESTINATIONS_MAX } from '@app/shared/constants';
import type { CaptionDestination, CaptionService } from '@app/shared/schemas/live';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { ApiError, describeError } from '../../../lib/api';
import { currentUiLanguage } from '../../../lib/i18n';
import { useCaptionDestinations, useDestinationActions } from '../api/caption-destinations';
import { useLiveT } from '../i18n';

/** The services' names: brands, the same in every language. */
const SERVICE_NAME: Record<CaptionService, string> = { youtube: 'YouTube Live', zoom: 'Zoom' };

/**
 * The share's caption destinations (YouTube Live, Zoom): each with its state (sending, last
 * delivered, the service's message), Pause or Resume and Remove; and a form to add one. The
 * server sends the captions (the page may close, the phone may lock); it never shows a URL again.
 */
export function CaptionDestinations({ code }: { code: string }) {
  const tl = useLiveT();
  const headingId = useId();
  const serviceId = useId();
  const list = useCaptionDestinations(code);
  const { add, setPaused, remove } = useDestinationActions(code);
  const [service, setService] = useState<CaptionService>('youtube');
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | undefined>();
  const destinations = list.data ?? [];
  const time = (iso: string) => new Intl.DateTimeFormat(currentUiLanguage(), { timeStyle: 'medium' }).format(new Date(iso));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    add.mutate(
      { service, url },
      {
        onSuccess: () => setUrl(''),
        onError: (err) => {
          const code = err instanceof ApiError ? err.code : undefined;
          if (code === 'invalid_destination') setError(tl(service === 'youtube' ? 'destinations.invalidYoutube' : 'destinations.invalidZoom'));
          else if (code === 'too_many_destinations') setError(tl('destinations.tooMany', { count: CAPTION_DESTINATIONS_MAX }));
          else if (code === 'share_ended') setError(tl('destinations.shareEnded'));
          else setError(describeError(err) ?? tl('destinations.addFailed'));
        },
      },
    );
  };

  const stateText = (d: CaptionDestination) => {
    const parts = [tl(`destinations.state.${d.state}`)];
    if (d.lastDeliveredAt) parts.push(tl('destinations.lastDelivered', { time: time(d.lastDeliveredAt) }));
    return parts.join(' · ');
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 border-t border-border pt-3">
      <h3 id={headingId} className="text-sm font-semibold text-fg">
        {tl('destinations.title')}
      </h3>
      <p className="text-xs text-fg-muted">{tl('destinations.intro')}</p>
      {destinations.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label={tl('destinations.list')}>
          {destinations.map((d) => {
            const name = `${SERVICE_NAME[d.service]} ${d.target}`;
            return (
              <li key={d.id} aria-label={name} className="flex flex-wrap items-center gap-2 rounded-lg border border-border p-2">
                <div className="min-w-0 flex-1 basis-48">
                  <p className="text-sm font-medium text-fg">
                    {SERVICE_NAME[d.service]} <span className="font-mono text-xs text-fg-muted">{d.target}</span>
                  </p>
                  <p className="text-xs text-fg-muted" data-state={d.state}>
                    {stateText(d)}
                  </p>
                  {d.error && <p className="text-xs text-danger">{tl('destinations.serviceSaid', { message: d.error })}</p>}
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={tl(d.state === 'paused' ? 'destinations.resumeOne' : 'destinations.pauseOne', { name })}
                  onClick={() => setPaused.mutate({ id: d.id, paused: d.state !== 'paused' })}
                >
                  {tl(d.state === 'paused' ? 'destinations.resume' : 'destinations.pause')}
                </Button>
                <Button variant="ghost" size="sm" aria-label={tl('destinations.removeOne', { name })} onClick={() => remove.mutate(d.id)}>
                  {tl('destinations.remove')}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {destinations.length < CAPTION_DESTINATIONS_MAX && (
        <form onSubmit={submit} className="flex flex-col gap-2" aria-label={tl('destinations.add')}>
          <div className="flex flex-col gap-1">
            <label htmlFor={serviceId} className="text-sm font-medium text-fg-soft">
              {tl('destinations.service')}
            </label>
            <select
              id={serviceId}
              value={service}
              onChange={(e) => setService(e.currentTarget.value as CaptionService)}
              className="h-10 rounded-lg border border-input bg-surface px-3 text-sm text-fg"
            >
              <option value="youtube">{SERVICE_NAME.youtube}</option>
              <option value="zoom">{SERVICE_NAME.zoom}</option>
            </select>
          </div>
          <TextField
            label={tl(service === 'youtube' ? 'destinations.youtubeUrl' : 'destinations.zoomToken')}
            hint={tl(service === 'youtube' ? 'destinations.youtubeHint' : 'destinations.zoomHint')}
            error={error}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
            required
          />
          <div>
            <Button type="submit" variant="secondary" size="sm" loading={add.isPending}>
              {tl('destinations.add')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
