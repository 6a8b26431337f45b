import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { CAPTION_LIMITS, DEFAULT_CAPTION_STYLE, type CaptionStyle } from '@app/shared/caption-style';
import { db, tableName } from '../src/db/client.ts';
import { keys } from '../src/db/keys.ts';
import { call, registerUser } from './call.ts';

const style = (patch: Partial<CaptionStyle> = {}): CaptionStyle => ({
  ...DEFAULT_CAPTION_STYLE,
  font: 'opendyslexic',
  color: '#fde047',
  background: '#1e3a8a',
  position: 'lowerThird',
  lines: 2,
  ...patch,
});

type Answer = { style: CaptionStyle | null; error?: string };
const get = (token: string) => call<Answer>('getCaptionStyle', { token });
const put = (token: string, body: unknown) => call<Answer>('putCaptionStyle', { token, body });

describe('the caption style on the account', () => {
  it('is null until saved, then what was saved, in its own item beside the user', async () => {
    const u = await registerUser();
    expect((await get(u.token)).body).toEqual({ style: null });

    const saved = await put(u.token, style());
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ style: style() });
    expect((await get(u.token)).body).toEqual({ style: style() });

    const item = await db().send(new GetCommand({ TableName: tableName(), Key: keys.captionStyle(u.id) }));
    expect(item.Item).toMatchObject({ type: 'captionStyle', font: 'opendyslexic', position: 'lowerThird' });
    const profile = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(u.id) }));
    expect(profile.Item).not.toHaveProperty('font');

    // Saved again: replaced whole, the first write's createdAt kept.
    expect((await put(u.token, style({ font: 'mono', uppercase: true }))).status).toBe(200);
    expect((await get(u.token)).body.style).toMatchObject({ font: 'mono', uppercase: true });
    const again = await db().send(new GetCommand({ TableName: tableName(), Key: keys.captionStyle(u.id) }));
    expect(again.Item?.createdAt).toBe(item.Item?.createdAt);
  });

  it.each([
    ['an unknown font', style({ font: 'comic' as never }), /font must be one of/],
    ['a size below the range', style({ size: CAPTION_LIMITS.size.min - 1 }), /size is at least 16 px/],
    ['a size above the range', style({ size: CAPTION_LIMITS.size.max + 1 }), /size is at most 160 px/],
    ['a fractional size', style({ size: 40.5 }), /whole number of pixels/],
    ['a size as text', { ...style(), size: '40' }, /size must be a number/],
    ['a line height above the range', style({ lineHeight: 3 }), /line height is at most 2/],
    ['letter spacing below the range', style({ letterSpacing: -1 }), /letter spacing is at least/],
    ['an unknown weight', style({ weight: 450 as never }), /weight must be one of/],
    ['a colour name', style({ color: 'white' }), /text colour must be a colour like/],
    ['a short colour', style({ background: '#fff' }), /background colour must be a colour like/],
    ['an opacity above 1', style({ backgroundOpacity: 1.5 }), /background opacity is at most 1/],
    ['an unknown edge', style({ edge: 'glow' as never }), /edge must be one of/],
    ['an unknown position', style({ position: 'left' as never }), /position must be one of/],
    ['no lines', style({ lines: 0 }), /number of lines is at least 1/],
    ['an unknown interim setting', style({ interim: 'bold' as never }), /interim text setting/],
    ['a missing field', { font: 'sans', size: 40 }, /./],
    ['an unknown field', { ...style(), extra: true }, /./],
    ['not an object', ['sans'], /./],
  ])('refuses %s with 400 JSON {error} and keeps what was saved', async (_, body, message) => {
    const u = await registerUser();
    await put(u.token, style());
    const res = await put(u.token, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    expect((await get(u.token)).body).toEqual({ style: style() });
  });

  it('refuses a body that is not JSON with 400', async () => {
    const u = await registerUser();
    const res = await call<{ error: string }>('putCaptionStyle', { token: u.token, rawBody: '{"font":' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
    expect((await get(u.token)).body).toEqual({ style: null });
  });

  it('needs a session, and each user (a free one too) reads and writes only their own', async () => {
    expect((await call('getCaptionStyle')).status).toBe(401);
    expect((await call('putCaptionStyle', { body: style() })).status).toBe(401);
    const a = await registerUser();
    const b = await registerUser();
    expect((await put(a.token, style({ font: 'serif' }))).status).toBe(200);
    expect((await get(b.token)).body).toEqual({ style: null });
    await put(b.token, style({ font: 'atkinson' }));
    expect((await get(a.token)).body.style?.font).toBe('serif');
    expect((await get(b.token)).body.style?.font).toBe('atkinson');
  });
});
