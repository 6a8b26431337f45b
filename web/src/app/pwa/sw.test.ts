import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiPathPatterns, isApiPath, routes } from '@app/shared/routes';

/**
 * The service worker (web/public/sw.js, hand-written, served as it is) never answers for the API.
 * Its copy of the API path patterns is checked here against the ones the route table derives
 * (what CloudFront forwards and the local server answers), and so is its matcher.
 */
const source = readFileSync(join(import.meta.dirname, '../../../public/sw.js'), 'utf8');
const listed = JSON.parse(/const API_PATTERNS = (\[[^\]]*\]);/.exec(source)![1]!.replaceAll("'", '"')) as string[];
const isApi = new Function(`const API_PATTERNS = ${JSON.stringify(listed)};\n${/const isApi = [^\n]+/.exec(source)![0]}\nreturn isApi;`)() as (path: string) => boolean;

describe('service worker', () => {
  it('lists exactly the API path patterns of the route table', () => {
    expect([...listed].sort()).toEqual(apiPathPatterns().sort());
  });

  it('leaves to the network every path the API answers, and only those', () => {
    const paths = Object.values(routes).map((r) => r.path.replace(/\{[^}]+\}/g, 'x1'));
    const others = ['/', '/help', '/contacts', '/apis', '/transcricoes', '/live/abc', '/api', '/stripe', '/assets/a.js'];
    for (const path of [...paths, ...others]) expect(isApi(path), path).toBe(isApiPath(path));
  });
});
