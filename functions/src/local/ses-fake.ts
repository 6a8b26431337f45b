import { randomUUID } from 'node:crypto';
import { writeToOutbox } from '../lib/mail.ts';
import { startAwsFake, callerOf, type AwsFake, type FakeAnswer } from './aws-fake.ts';

/**
 * A local SES (API v2): `SendEmail` (REST-JSON, `POST /v2/email/outbound-emails`) for the real
 * `@aws-sdk/client-sesv2`, pointed at it with `AWS_ENDPOINT_URL_SESV2`. Each message it accepts
 * lands in the local outbox (lib/mail.ts `writeToOutbox`), where the browser journeys read mail.
 * As SES does, it refuses a caller without `ses:SendEmail` (AccessDeniedException) and a sender
 * that is no verified identity (MessageRejected): the From address must be one of `identities` or
 * at one of its domains (or their subdomains).
 */

export interface SesFakeOptions {
  outboxDir: string;
  /** The verified identities: domains (`example.com`) or addresses. */
  identities: readonly string[];
  /** The callers (access key ids) allowed to send, or `*` for any. */
  senders: ReadonlySet<string> | '*';
  region?: string;
}

export const SEND_EMAIL_PATH = '/v2/email/outbound-emails';

const error = (status: number, type: string, message: string): FakeAnswer => ({
  status,
  headers: { 'x-amzn-errortype': type },
  body: { message },
});

/** The address of `Name <address>` or of a bare address, lowercased. */
export const addressOf = (from: string): string => (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim().toLowerCase();

interface SendEmailInput {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  ReplyToAddresses?: string[];
  Content?: { Simple?: { Subject?: { Data?: string }; Body?: { Text?: { Data?: string }; Html?: { Data?: string } } } };
}

export async function startSesFake(options: SesFakeOptions): Promise<AwsFake> {
  const region = (options.region ?? 'us-east-1').toUpperCase();
  const identities = new Set(options.identities.map((i) => i.toLowerCase()));
  /** An address identity, or a domain identity of its domain or of a parent domain (SES lets a verified domain send from its subdomains). */
  const verified = (address: string) => {
    if (identities.has(address)) return true;
    const labels = address.slice(address.lastIndexOf('@') + 1).split('.');
    return labels.some((_, i) => identities.has(labels.slice(i).join('.')));
  };

  return startAwsFake('SES', async (req, body) => {
    const caller = callerOf(req);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const input = (body ?? {}) as SendEmailInput;
    const to = [...(input.Destination?.ToAddresses ?? []), ...(input.Destination?.CcAddresses ?? []), ...(input.Destination?.BccAddresses ?? [])];
    const refuse = (status: number, type: string, message: string) => ({
      answer: error(status, type, message),
      call: { caller, operation: 'SendEmail', subject: to.join(', '), outcome: type },
    });

    if (req.method !== 'POST' || path !== SEND_EMAIL_PATH) return refuse(404, 'UnknownOperationException', `the local SES answers only SendEmail (POST ${SEND_EMAIL_PATH})`);
    if (!caller) return refuse(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    if (options.senders !== '*' && !options.senders.has(caller)) {
      return refuse(403, 'AccessDeniedException', `User: ${caller} is not authorized to perform: ses:SendEmail`);
    }
    const simple = input.Content?.Simple;
    if (!simple) return refuse(400, 'BadRequestException', 'the local SES takes only Simple content');
    if (to.length === 0) return refuse(400, 'BadRequestException', 'Missing required header: To');
    const from = input.FromEmailAddress ?? '';
    if (!from || !verified(addressOf(from))) {
      return refuse(400, 'MessageRejected', `Email address is not verified. The following identities failed the check in region ${region}: ${from || '(no From address)'}`);
    }
    const replyTo = input.ReplyToAddresses?.join(', ');
    await writeToOutbox(options.outboxDir, {
      from,
      to: to.join(', '),
      subject: simple.Subject?.Data ?? '',
      text: simple.Body?.Text?.Data ?? simple.Body?.Html?.Data ?? '',
      ...(replyTo ? { replyTo } : {}),
    });
    return { answer: { status: 200, body: { MessageId: randomUUID() } }, call: { caller, operation: 'SendEmail', subject: to.join(', '), outcome: 'ok' } };
  });
}
