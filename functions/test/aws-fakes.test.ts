import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SendEmailCommand, SESv2Client, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetEnv } from '../src/lib/env.ts';
import { sendMail } from '../src/lib/mail.ts';
import { resetSecrets, secret } from '../src/lib/secrets.ts';
import { FAKE_CALLS_PATH, type AwsFake } from '../src/local/aws-fake.ts';
import { withFunctionEnv } from '../src/local/function-env.ts';
import { startSecretsManagerFake, type SecretsManagerFake } from '../src/local/secrets-manager-fake.ts';
import { startSesFake } from '../src/local/ses-fake.ts';

/**
 * The local fakes of Secrets Manager and SES that the bundles pass runs the functions against
 * (local-aws.ts), called by the real AWS SDK clients, and by lib/secrets.ts and lib/mail.ts through
 * the SDK's standard endpoint variables, as the bundles call them.
 */

const TOKEN_KEY = 'token-key-from-the-fake-0123456789abcdef';
const ORIGIN = 'origin-from-the-fake-0123456789abcdefghij';
/** A function granted the token key and the bot check (which has no value), not the origin secret. */
const READER = 'ApiGetMeRouteFn0001';
/** A caller granted every secret. */
const ADMIN = 'Operator';
const FROM = 'Live Transcribe <no-reply@mail.example.com>';

const credentials = (caller: string) => ({ accessKeyId: caller, secretAccessKey: 'local' });
const errorOf = async (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: { name: string; message: string; $metadata?: { httpStatusCode?: number } }) => ({ name: err.name, message: err.message, status: err.$metadata?.httpStatusCode }),
  );

let sm: SecretsManagerFake;
let ses: AwsFake;
let outbox: string;

beforeAll(async () => {
  outbox = await mkdtemp(join(tmpdir(), 'ses-outbox-'));
  sm = await startSecretsManagerFake({
    secrets: [{ name: 'live-transcribe/dev/token-key', value: TOKEN_KEY }, { name: 'live-transcribe/dev/origin', value: ORIGIN }, { name: 'live-transcribe/dev/bot-check' }],
    grants: (arnOf) => ({ [READER]: [arnOf('live-transcribe/dev/token-key'), arnOf('live-transcribe/dev/bot-check')], [ADMIN]: '*' }),
  });
  ses = await startSesFake({ outboxDir: outbox, identities: ['mail.example.com'], senders: new Set([READER]) });
});
afterAll(async () => {
  await Promise.all([sm.stop(), ses.stop()]);
  await rm(outbox, { recursive: true, force: true });
});
afterEach(() => {
  resetEnv();
  resetSecrets();
});

describe('the local Secrets Manager, called by the real SDK client', () => {
  const client = (caller: string) => new SecretsManagerClient({ endpoint: sm.endpoint, region: 'us-east-1', credentials: credentials(caller) });
  const get = (caller: string, id: string) => client(caller).send(new GetSecretValueCommand({ SecretId: id }));
  const arn = (name: string) => sm.arnOf(`live-transcribe/dev/${name}`);

  it('answers the value of a secret the caller is granted, by ARN or by name', async () => {
    expect(arn('token-key')).toMatch(/^arn:aws:secretsmanager:us-east-1:\d{12}:secret:live-transcribe\/dev\/token-key-[\w-]{6}$/);
    const out = await get(READER, arn('token-key'));
    expect(out).toMatchObject({ SecretString: TOKEN_KEY, ARN: arn('token-key'), Name: 'live-transcribe/dev/token-key', VersionStages: ['AWSCURRENT'] });
    expect(out.CreatedDate).toBeInstanceOf(Date);
    expect((await get(READER, 'live-transcribe/dev/token-key')).SecretString).toBe(TOKEN_KEY);
    expect((await get(ADMIN, arn('origin'))).SecretString).toBe(ORIGIN);
  });

  it('answers ResourceNotFoundException for a secret without a value, and for an unknown id to a caller allowed everything', async () => {
    expect(await errorOf(get(READER, arn('bot-check')))).toEqual({
      name: 'ResourceNotFoundException',
      message: expect.stringContaining("can't find the specified secret value for staging label: AWSCURRENT"),
      status: 400,
    });
    expect(await errorOf(get(ADMIN, 'live-transcribe/dev/nothing'))).toMatchObject({ name: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
  });

  it('refuses a secret the caller is not granted, and any unknown id, with AccessDeniedException', async () => {
    for (const id of [arn('origin'), 'live-transcribe/dev/origin', 'live-transcribe/dev/nothing']) {
      expect(await errorOf(get(READER, id)), id).toMatchObject({
        name: 'AccessDeniedException',
        message: expect.stringContaining(`is not authorized to perform: secretsmanager:GetSecretValue on resource: ${id}`),
      });
    }
    expect(await errorOf(get('Stranger', arn('token-key')))).toMatchObject({ name: 'UnrecognizedClientException' });
  });

  it('logs each call, for the tests of other processes too', async () => {
    await get(READER, arn('token-key'));
    await errorOf(get(READER, arn('origin')));
    expect(sm.calls.slice(-2)).toEqual([
      { caller: READER, operation: 'GetSecretValue', subject: 'live-transcribe/dev/token-key', outcome: 'ok' },
      { caller: READER, operation: 'GetSecretValue', subject: 'live-transcribe/dev/origin', outcome: 'AccessDeniedException' },
    ]);
    const served = (await (await fetch(`${sm.endpoint}${FAKE_CALLS_PATH}`)).json()) as { calls: unknown[] };
    expect(served.calls).toEqual(sm.calls);
  });

  it("serves lib/secrets.ts through AWS_ENDPOINT_URL_SECRETS_MANAGER: a value, a secret without one, one the function is not given", async () => {
    const asReader = { AWS_ENDPOINT_URL_SECRETS_MANAGER: sm.endpoint, AWS_ACCESS_KEY_ID: READER, AWS_SECRET_ACCESS_KEY: 'local', AWS_SESSION_TOKEN: undefined };
    await withFunctionEnv({ ...asReader, TOKEN_KEY_SECRET_ID: arn('token-key'), BOT_CHECK_SECRET_ID: arn('bot-check'), RECAPTCHA_SECRET: 'not-read' }, async () => {
      await expect(secret('tokenKey')).resolves.toBe(TOKEN_KEY);
      await expect(secret('botCheck')).resolves.toBeUndefined();
    });
    resetSecrets();
    await withFunctionEnv({ ...asReader, ORIGIN_SECRET_ID: arn('origin') }, async () => {
      await expect(secret('origin')).rejects.toMatchObject({ name: 'AccessDeniedException' });
    });
  });
});

describe('the local SES, called by the real SDK client', () => {
  const client = (caller: string) => new SESv2Client({ endpoint: ses.endpoint, region: 'us-east-1', credentials: credentials(caller) });
  const mail = (to: string, from = FROM): SendEmailCommandInput => ({
    FromEmailAddress: from,
    Destination: { ToAddresses: [to] },
    ReplyToAddresses: ['visitor@example.org'],
    Content: { Simple: { Subject: { Data: `Hello ${to}`, Charset: 'UTF-8' }, Body: { Text: { Data: 'Olá, ção', Charset: 'UTF-8' } } } },
  });
  const outboxTo = async (to: string) => {
    const files = await readdir(outbox);
    const mails = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(outbox, f), 'utf8')) as { to: string }));
    return mails.filter((m) => m.to === to);
  };

  it('writes a message it accepts to the outbox, as the local transport does', async () => {
    const out = await client(READER).send(new SendEmailCommand(mail('someone@example.com')));
    expect(out.MessageId).toEqual(expect.any(String));
    expect(await outboxTo('someone@example.com')).toEqual([
      { from: FROM, to: 'someone@example.com', subject: 'Hello someone@example.com', text: 'Olá, ção', replyTo: 'visitor@example.org', sentAt: expect.any(String) },
    ]);
    expect(ses.calls.at(-1)).toEqual({ caller: READER, operation: 'SendEmail', subject: 'someone@example.com', outcome: 'ok' });
    // A verified domain's subdomains may send too.
    await client(READER).send(new SendEmailCommand(mail('sub@example.com', 'x@news.mail.example.com')));
    expect(await outboxTo('sub@example.com')).toHaveLength(1);
  });

  it('refuses a From that is no verified identity (MessageRejected), and a caller without ses:SendEmail', async () => {
    for (const from of ['no-reply@example.com', 'Visitor <visitor@example.org>', 'x@mail.example.com.evil.org', 'x@evilmail.example.com']) {
      expect(await errorOf(client(READER).send(new SendEmailCommand(mail('refused@example.com', from)))), from).toMatchObject({
        name: 'MessageRejected',
        message: expect.stringContaining('Email address is not verified'),
        status: 400,
      });
    }
    expect(await errorOf(client(ADMIN).send(new SendEmailCommand(mail('refused@example.com'))))).toMatchObject({ name: 'AccessDeniedException', status: 403 });
    expect(await outboxTo('refused@example.com')).toEqual([]);
  });

  it('takes lib/mail.ts with MAIL_TRANSPORT=ses through AWS_ENDPOINT_URL_SESV2', async () => {
    await withFunctionEnv(
      { MAIL_TRANSPORT: 'ses', MAIL_FROM: FROM, AWS_ENDPOINT_URL_SESV2: ses.endpoint, AWS_ACCESS_KEY_ID: READER, AWS_SECRET_ACCESS_KEY: 'local', AWS_SESSION_TOKEN: undefined },
      async () => {
        resetEnv();
        await sendMail({ to: 'lib@example.com', subject: 'Through SES', text: 'body' });
      },
    );
    expect(await outboxTo('lib@example.com')).toEqual([expect.objectContaining({ from: FROM, subject: 'Through SES', text: 'body' })]);
    // The transport's own outbox (OUTBOX_DIR) got nothing: the message went through SES.
    const local = await readdir(process.env.OUTBOX_DIR!).catch(() => []);
    expect(local).toEqual([]);
  });
});
