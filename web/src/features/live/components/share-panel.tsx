import { useId, useState } from 'react';
import { CircleStop, Clapperboard, Link, Share2 } from 'lucide';
import { Button } from '../../../components/ui/button';
import { Icon } from '../../../components/ui/icon';
import { currentUiLanguage } from '../../../lib/i18n';
import { useLiveViewers } from '../api/live-viewers';
import { useLiveT } from '../i18n';
import { CaptionDestinations } from './caption-destinations';
import { QrCode } from './qr-code';

/**
 * The live link of a share: copy, the system share sheet where there is one, its QR code, the
 * overlay link for a video mixer's browser source (copy), how many follow, stop, and the caption
 * destinations (YouTube Live, Zoom) the server sends the captions to.
 */
export default function SharePanel({ code, expiresAt, onStop, stopping }: { code: string; expiresAt: string; onStop: () => void; stopping: boolean }) {
  const tl = useLiveT();
  const linkId = useId();
  const overlayId = useId();
  const overlayHintId = useId();
  const url = `${window.location.origin}/live/${code}`;
  const overlayUrl = `${url}/overlay`;
  const viewers = useLiveViewers(code);
  const [copied, setCopied] = useState<'copied' | 'overlayCopied' | 'copyFailed' | null>(null);
  const canShare = typeof navigator.share === 'function';
  const until = new Intl.DateTimeFormat(currentUiLanguage(), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(expiresAt));

  const copy = (text: string, done: 'copied' | 'overlayCopied') => {
    setCopied(null);
    const written = navigator.clipboard?.writeText(text) ?? Promise.reject(new Error('no clipboard'));
    written.then(
      () => setCopied(done),
      () => setCopied('copyFailed'),
    );
  };
  // Closing the share sheet without sharing rejects: nothing to say.
  const shareLink = () => void navigator.share({ title: tl('share.shareTitle'), url }).catch(() => undefined);

  return (
    <section aria-label={tl('share.panel')} className="flex w-full flex-wrap items-start gap-4 rounded-xl border border-border bg-surface p-4">
      <QrCode text={url} label={tl('share.qr')} />
      <div className="flex min-w-0 flex-1 basis-64 flex-col gap-3">
        <p className="text-sm text-fg-muted">{tl('share.intro')}</p>
        <div className="flex flex-col gap-1">
          <label htmlFor={linkId} className="text-sm font-medium text-fg-soft">
            {tl('share.link')}
          </label>
          <input
            id={linkId}
            readOnly
            value={url}
            onFocus={(e) => e.currentTarget.select()}
            className="w-full rounded-lg border border-input bg-surface-muted px-3 py-2 font-mono text-sm text-fg"
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={overlayId} className="text-sm font-medium text-fg-soft">
            {tl('share.overlay')}
          </label>
          <div className="flex flex-wrap items-center gap-2">
            <input
              id={overlayId}
              readOnly
              value={overlayUrl}
              aria-describedby={overlayHintId}
              onFocus={(e) => e.currentTarget.select()}
              className="min-w-0 flex-1 basis-48 rounded-lg border border-input bg-surface-muted px-3 py-2 font-mono text-sm text-fg"
            />
            <Button variant="secondary" size="sm" onClick={() => copy(overlayUrl, 'overlayCopied')}>
              <Icon node={Clapperboard} size={16} />
              {tl('share.copyOverlay')}
            </Button>
          </div>
          <p id={overlayHintId} className="text-xs text-fg-muted">
            {tl('share.overlayHint')}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => copy(url, 'copied')}>
            <Icon node={Link} size={16} />
            {tl('share.copy')}
          </Button>
          {canShare && (
            <Button variant="secondary" size="sm" onClick={shareLink}>
              <Icon node={Share2} size={16} />
              {tl('share.shareLink')}
            </Button>
          )}
          <Button variant="danger" size="sm" onClick={onStop} loading={stopping}>
            <Icon node={CircleStop} size={16} />
            {tl('share.stop')}
          </Button>
        </div>
        <p role="status" className="text-sm font-medium text-fg">
          {viewers.data !== undefined && tl('share.viewers', { count: viewers.data })}
        </p>
        {copied && (
          <p role="status" className={copied === 'copied' ? 'text-sm text-success' : 'text-sm text-danger'}>
            {tl(`share.${copied}`)}
          </p>
        )}
        <p className="text-xs text-fg-muted">{tl('share.expires', { time: until })}</p>
        <CaptionDestinations code={code} />
      </div>
    </section>
  );
}
