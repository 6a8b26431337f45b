import type { CaptionService } from '@app/shared/schemas/live';
import { graphemes, lineTokens } from '@app/shared/text-segments';

/**
 * Caption destinations: the rules for the URLs a speaker gives and for what is sent to them, as
 * YouTube and Zoom document their closed-caption ingestion over HTTP POST
 * (docs/caption-destinations.md). Pure: no network, no database.
 */

/** The documented host of each service's caption ingestion, and the path of its URLs. */
const YOUTUBE_HOST = 'upload.youtube.com';
/** Zoom hands out `wmcc.zoom.us` and regional `<region><nn>wmcc.zoom.us` (us02wmcc, us04wmcc…) caption URLs. */
const ZOOM_HOST = /^(?:[a-z]{2}\d{2})?wmcc\.zoom\.us$/;
const INGESTION_PATH = '/closedcaption';

const SERVICE_NAME: Record<CaptionService, string> = { youtube: 'YouTube', zoom: 'Zoom' };

/** The query parameters this product adds to every request: a URL must not carry them already. */
const ADDED_PARAMS = ['seq', 'lang'];

/**
 * The URL to send a service's captions to, or why it is refused. Accepted: https, the service's
 * documented host exactly (so no IP address, no localhost, no other host), the default port, no
 * user name or password, the ingestion path, a query (the stream's or meeting's id and
 * signature) without `seq` or `lang`. `localReceiver` (the local server's caption receiver, never
 * on Lambda: lib/caption-receiver.ts) is accepted too, under `<localReceiver><service>/closedcaption?`.
 */
export function checkDestinationUrl(service: CaptionService, raw: string, localReceiver?: string): { url: string } | { error: string } {
  const name = SERVICE_NAME[service];
  const refused = {
    error:
      service === 'youtube'
        ? `Paste the caption ingestion URL from YouTube Studio: https://${YOUTUBE_HOST}/closedcaption?… (an http:// address works with https:// in its place)`
        : `Paste the API token Zoom gives you (Show Captions, Set up manual captioner, Copy the API token): https://wmcc.zoom.us/closedcaption?…`,
  };
  const text = raw.trim();
  if (localReceiver && text.startsWith(`${localReceiver}${service}${INGESTION_PATH}?`)) return { url: text };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused;
  }
  if (url.protocol !== 'https:') return { error: `${name} captions go over https only. ${refused.error}` };
  const hostOk = service === 'youtube' ? url.hostname === YOUTUBE_HOST : ZOOM_HOST.test(url.hostname);
  if (!hostOk || url.port !== '' || url.username !== '' || url.password !== '') return { error: `That is not a ${name} caption address. ${refused.error}` };
  if (url.pathname !== INGESTION_PATH || url.search.length < 2 || url.hash !== '') return refused;
  if (ADDED_PARAMS.some((p) => url.searchParams.has(p))) return { error: `Paste the address without its ${ADDED_PARAMS.join(' or ')} parameter: it is added to each caption.` };
  return { url: url.href };
}

/** What the speaker sees of a destination: its host and the last four characters, never the secret URL. */
export function maskTarget(url: string): string {
  const host = new URL(url).host;
  return `${host} …${url.slice(-4)}`;
}

/**
 * The next caption from the text not yet sent: at most `maxChars`, cut after a space when longer;
 * in text without spaces (Chinese, Japanese, Thai) before the last word that starts within the
 * limit (by the language's word boundaries, punctuation kept with its word), and never inside a
 * character (a surrogate pair, an emoji with its modifiers, a letter with its marks).
 */
export interface NextCaption {
  /** The caption, its whitespace (line and paragraph breaks too) made single spaces; empty when the text is only whitespace. */
  caption: string;
  /** How much of the text it takes (UTF-16 code units): the next caption starts there. */
  consumed: number;
}

export function nextCaption(text: string, maxChars: number, language?: string | null): NextCaption {
  let consumed = text.length;
  if (text.length > maxChars) {
    const space = text.lastIndexOf(' ', maxChars);
    // The words are read a little past the limit: a word cut short there could split differently.
    consumed = space > 0 ? space + 1 : cutWithoutSpaces(text.slice(0, maxChars + 32), maxChars, language);
  }
  return { caption: text.slice(0, consumed).replace(/\s+/g, ' ').trim(), consumed };
}

/** Where to cut the text that `head` begins, with no space to cut at: a word's start within maxChars, else a character's. */
function cutWithoutSpaces(head: string, maxChars: number, language: string | null | undefined): number {
  const words = lineTokens(head, language).map((t) => t.index).filter((i) => i > 0 && i <= maxChars);
  if (words.length > 0) return words.at(-1)!;
  let at = 0;
  for (const g of graphemes(head)) {
    if (at + g.length > maxChars) break;
    at += g.length;
  }
  // A single character longer than the limit (never in practice): cut after it whole.
  return at > 0 ? at : (graphemes(head)[0]?.length ?? maxChars);
}

/** YouTube's caption time: UTC `YYYY-MM-DDTHH:MM:SS.mmm`, without a zone. */
export const youtubeTimestamp = (at: Date) => at.toISOString().slice(0, 23);

/** One HTTP request carrying one caption to a destination. */
export interface CaptionRequest {
  url: string;
  contentType: string;
  body: string;
}

/**
 * The request for caption number `seq` (counting from 1, one more for each new caption and the same
 * for a retry, as both services require), appended to the URL as given:
 * - YouTube: `&seq=<n>`; the body is the caption's UTC time on a line, then its text, each line
 *   ending with a newline; text/plain.
 * - Zoom: `&seq=<n>&lang=<language>` (the session's recognition language, e.g. en-US); the body is
 *   the caption's text alone; text/plain.
 */
export function captionRequest(service: CaptionService, url: string, seq: number, caption: string, language: string, at: Date): CaptionRequest {
  const joiner = url.includes('?') ? '&' : '?';
  if (service === 'youtube') {
    return { url: `${url}${joiner}seq=${seq}`, contentType: 'text/plain; charset=utf-8', body: `${youtubeTimestamp(at)}\n${caption}\n` };
  }
  return { url: `${url}${joiner}seq=${seq}&lang=${encodeURIComponent(language)}`, contentType: 'text/plain; charset=utf-8', body: caption };
}

/** Whether a failed request is tried again with backoff: network errors (no status) and 5xx; a 4xx or a redirect is the service's refusal. */
export const retryable = (status: number | undefined) => status === undefined || status >= 500;

/** The wait before retry number `attempt` (1, 2…): `first` doubling, at most `max`. */
export const retryDelay = (attempt: number, first: number, max: number) => Math.min(max, first * 2 ** (attempt - 1));
