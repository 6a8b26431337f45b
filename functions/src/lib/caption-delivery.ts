import { CAPTION_SEND_TIMEOUT_MS } from '@app/shared/constants';
import type { CaptionRequest } from '../domain/caption-destinations.ts';

/**
 * The local server's caption receiver (functions/src/local/caption-receiver.ts), which stands in
 * for YouTube and Zoom: its base URL from LOCAL_CAPTION_RECEIVER, honoured only off Lambda. Lambda
 * sets AWS_LAMBDA_FUNCTION_NAME in every function (a reserved variable no configuration can unset),
 * and the stack sets LOCAL_CAPTION_RECEIVER in none, so a deployed function accepts the services'
 * documented hosts only.
 */
export function localCaptionReceiver(): string | undefined {
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) return undefined;
  return process.env.LOCAL_CAPTION_RECEIVER || undefined;
}

/** What a caption request came to. */
export interface CaptionAnswer {
  ok: boolean;
  /** The HTTP status; absent when no answer came (network error, timeout). */
  status?: number;
  /** For a failure: the status and the service's own words (its body's first line, at most 200 characters). */
  message?: string;
}

/**
 * POSTs one caption: never follows a redirect (a 3xx is a refusal), gives up after
 * CAPTION_SEND_TIMEOUT_MS. The URL is a secret: no message here carries it.
 */
export async function postCaption(request: CaptionRequest, timeoutMs = CAPTION_SEND_TIMEOUT_MS): Promise<CaptionAnswer> {
  let res: Response;
  try {
    res = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': request.contentType },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const timeout = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return { ok: false, message: timeout ? `No answer within ${timeoutMs / 1000} s` : 'Could not reach the service' };
  }
  const text = await res.text().catch(() => '');
  if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
  const said = text.trim().split('\n')[0]?.slice(0, 200) ?? '';
  const what = res.status >= 300 && res.status < 400 ? 'a redirect, which is not followed' : res.statusText || 'an error';
  return { ok: false, status: res.status, message: `${res.status}: ${said || what}` };
}
