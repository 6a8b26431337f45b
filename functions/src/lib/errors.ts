export interface ErrorExtra {
  code?: string;
  requiresPro?: boolean;
  secondsLeft?: number;
  /** Autosave gap: how much of the transcript the server holds. */
  length?: number;
  /** An edit's version conflict: the version the server holds now. */
  version?: number;
}

/** A failure the caller may see. Only statuses below 500 expose their message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: ErrorExtra = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code?: string) => new HttpError(400, message, { code });
export const unauthorized = (message = 'Sign in to continue', code = 'unauthorized') => new HttpError(401, message, { code });
export const forbidden = (message: string, extra: ErrorExtra = {}) => new HttpError(403, message, extra);
export const notFound = (message = 'Not found', code = 'not_found') => new HttpError(404, message, { code });
export const conflict = (message: string, code?: string) => new HttpError(409, message, { code });
export const tooMany = (message: string, secondsLeft: number, code = 'rate_limited') =>
  new HttpError(429, message, { code, secondsLeft });

