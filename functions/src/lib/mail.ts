import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { env } from './env.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

/** Strips line breaks so no value can add a mail header. */
export const headerSafe = (value: string) => value.replace(/[\r\n]+/g, ' ').trim();

/** Sends through SES on AWS; locally writes to the outbox folder and prints it. */
export async function sendMail(mail: Mail): Promise<void> {
  const e = env();
  const safe = { ...mail, to: headerSafe(mail.to), subject: headerSafe(mail.subject), replyTo: mail.replyTo && headerSafe(mail.replyTo) };
  if (e.MAIL_TRANSPORT === 'ses') {
    const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
    await new SESv2Client({}).send(
      new SendEmailCommand({
        FromEmailAddress: e.MAIL_FROM,
        Destination: { ToAddresses: [safe.to] },
        ReplyToAddresses: safe.replyTo ? [safe.replyTo] : undefined,
        Content: { Simple: { Subject: { Data: safe.subject, Charset: 'UTF-8' }, Body: { Text: { Data: safe.text, Charset: 'UTF-8' } } } },
      }),
    );
    return;
  }
  await writeToOutbox(e.OUTBOX_DIR, { from: e.MAIL_FROM, ...safe });
}

/**
 * The local outbox: each message a JSON file (`from`, `to`, `subject`, `text`, `replyTo`, `sentAt`)
 * in `dir`, which the browser journeys read, also printed unless LOG_LEVEL is silent. The local
 * SES fake writes what it accepts here too.
 */
export async function writeToOutbox(dir: string, message: Mail & { from: string }): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.json`);
  await writeFile(file, JSON.stringify({ ...message, sentAt: new Date().toISOString() }, null, 2));
  if (process.env.LOG_LEVEL !== 'silent') {
    console.log(`\n📧 Mail to ${message.to}: ${message.subject}\n${message.text}\n(saved to ${file})\n`);
  }
  return file;
}
