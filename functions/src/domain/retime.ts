import type { StoredSegment } from './text.ts';

/**
 * Segments for an edited text, keeping the timing of the old ones: a segment whose text is
 * unchanged keeps its times and moves with its text; changed text takes the times of the
 * segments it replaced (a change inside a segment stays in it; text replacing several segments is
 * shared among them in proportion, at word boundaries where there are any); text inserted where
 * one segment ends and the next begins joins the first; a segment whose text was deleted is
 * dropped. Times never go backwards: each start is at least the previous one, each end at least
 * its start. So SRT and VTT built from the result stay aligned with the audio.
 *
 * The texts are aligned by a diff: their common start and end first (one change anywhere costs
 * nothing more), then the middle by sentences, then only within the sentences that differ by
 * words (every CJK character a word of its own). Each diff is Myers' (time proportional to the
 * text times the number of differences), bounded by DIFF_MAX_EDITS differences and a budget of
 * DIFF_BUDGET steps for the whole call: past either, the stretch counts as one change and its
 * segments share it in proportion. So a 1.3 MB text takes well under a second whatever was done to it.
 */
export function retimeSegments(oldText: string, old: readonly StoredSegment[], newText: string): StoredSegment[] {
  if (!old.length) return [];
  const runs = alignRuns(oldText, newText);
  const map = positionMap(runs, oldText.length, newText);
  const out: StoredSegment[] = [];
  let prevEnd = 0;
  let prevStartMs = 0;
  for (const [startMs, endMs, at, len] of old) {
    const start = Math.max(prevEnd, map(at, 'start'));
    const end = Math.max(start, map(at + len, 'end'));
    if (end === start) continue;
    const s = Math.max(prevStartMs, startMs);
    out.push([s, Math.max(s, endMs), start, end - start]);
    prevEnd = end;
    prevStartMs = s;
  }
  return out;
}

/** Most differences a diff looks for before it takes the stretch as one change. */
export const DIFF_MAX_EDITS = 2_000;
/** Steps all the diffs of one call may take together. */
export const DIFF_BUDGET = 30_000_000;

/** A stretch the two texts share: `len` characters at `a` in the old, at `b` in the new. */
type Run = [a: number, b: number, len: number];

/** The stretches old and new text share, in order (both positions ascending). */
export function alignRuns(oldText: string, newText: string): Run[] {
  let p = 0;
  const maxCommon = Math.min(oldText.length, newText.length);
  while (p < maxCommon && oldText.charCodeAt(p) === newText.charCodeAt(p)) p++;
  let q = 0;
  while (q < maxCommon - p && oldText.charCodeAt(oldText.length - 1 - q) === newText.charCodeAt(newText.length - 1 - q)) q++;
  const runs: Run[] = [];
  if (p) runs.push([0, 0, p]);
  const budget = { left: DIFF_BUDGET };
  const oldEnd = oldText.length - q;
  const newEnd = newText.length - q;
  // Sentences first; then words, only between the sentences both texts share.
  let a = p;
  let b = p;
  const coarse = diffTokens(oldText, a, oldEnd, newText, b, newEnd, SENTENCE, budget);
  for (const [ca, cb, len] of [...coarse, [oldEnd, newEnd, 0] as Run]) {
    if (ca > a || cb > b) runs.push(...diffTokens(oldText, a, ca, newText, b, cb, WORD, budget));
    if (len) runs.push([ca, cb, len]);
    a = ca + len;
    b = cb + len;
  }
  if (q) runs.push([oldText.length - q, newText.length - q, q]);
  return runs;
}

const SENTENCE = /[^.!?。！？\n]*(?:[.!?。！？\n]+\s*|$)/gu;
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}';
const WORD = new RegExp(`\\s+|[${CJK}]|(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])+|.`, 'gsu');

/** The shared stretches of old[a0, a1) and new[b0, b1), token by token; none past the limits. */
function diffTokens(oldText: string, a0: number, a1: number, newText: string, b0: number, b1: number, pattern: RegExp, budget: { left: number }): Run[] {
  if (a0 >= a1 || b0 >= b1 || budget.left <= 0) return [];
  const ids = new Map<string, number>();
  const ta = tokenize(oldText, a0, a1, pattern, ids);
  const tb = tokenize(newText, b0, b1, pattern, ids);
  const matched = myers(ta.ids, tb.ids, budget);
  if (!matched) return [];
  return matched.map(([i, j, n]) => [ta.starts[i]!, tb.starts[j]!, ta.starts[i + n]! - ta.starts[i]!]);
}

function tokenize(text: string, from: number, to: number, pattern: RegExp, ids: Map<string, number>) {
  const tokenIds: number[] = [];
  const starts: number[] = [];
  const re = new RegExp(pattern.source, pattern.flags);
  re.lastIndex = from;
  const slice = text.slice(0, to);
  for (let m = re.exec(slice); m && m.index < to; m = re.exec(slice)) {
    if (!m[0]) {
      re.lastIndex++;
      continue;
    }
    let id = ids.get(m[0]);
    if (id === undefined) ids.set(m[0], (id = ids.size));
    tokenIds.push(id);
    starts.push(m.index);
  }
  starts.push(to);
  return { ids: Int32Array.from(tokenIds), starts };
}

/**
 * Myers' greedy diff: the runs of equal tokens of a longest common subsequence as
 * [index in a, index in b, count], or null past DIFF_MAX_EDITS differences or the budget.
 */
export function myers(a: Int32Array, b: Int32Array, budget: { left: number } = { left: DIFF_BUDGET }): Run[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, DIFF_MAX_EDITS);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      const x0 = x;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      budget.left -= x - x0 + 1;
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m);
    }
    if (budget.left <= 0) return null;
    trace.push(v.slice(off - d, off + d + 1));
  }
  return null;
}

function backtrack(trace: Int32Array[], dEnd: number, n: number, m: number): Run[] {
  const runs: Run[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const prev = trace[d - 1]!; // k from -(d - 1) to d - 1, at index k + d - 1
    const k = x - y;
    const at = (kk: number) => prev[kk + d - 1]!;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const pk = down ? k + 1 : k - 1;
    const px = at(pk);
    const sx = down ? px : px + 1;
    if (x > sx) runs.push([sx, sx - k, x - sx]);
    x = px;
    y = px - pk;
  }
  if (x > 0) runs.push([0, 0, x]);
  return runs.reverse();
}

/**
 * Where a segment boundary at an old position lands in the new text: inside a shared stretch it
 * moves with it; inside a changed stretch in proportion (at a word boundary nearby when there is
 * one). Where text was only inserted, a segment's start stays before it and its end goes after it.
 */
function positionMap(runs: readonly Run[], oldLength: number, newText: string) {
  const all: Run[] = [[0, 0, 0], ...runs, [oldLength, newText.length, 0]];
  return (pos: number, side: 'start' | 'end'): number => {
    // The last run (but the closing one) that ends at or before pos.
    let lo = 0;
    let hi = all.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (all[mid]![0] + all[mid]![2] <= pos) lo = mid;
      else hi = mid - 1;
    }
    const [a, b, len] = all[lo]!;
    const [na, nb, nlen] = all[lo + 1]!;
    if (na < pos && pos < na + nlen) return nb + (pos - na);
    const gapA = a + len;
    const gapB = b + len;
    if (na === gapA) return side === 'start' ? gapB : nb; // text only inserted here (or nothing changed)
    if (pos === gapA) return gapB;
    if (pos === na) return nb;
    return snap(newText, gapB + Math.round(((pos - gapA) / (na - gapA)) * (nb - gapB)), gapB, nb);
  };
}

/** A position moved to the nearest whitespace within [lo, hi] (at most 40 characters away), never inside a surrogate pair. */
function snap(text: string, at: number, lo: number, hi: number): number {
  if (at <= lo || at >= hi) return Math.min(Math.max(at, lo), hi);
  for (let d = 0; d <= 40; d++) {
    if (at + d < hi && /\s/.test(text[at + d]!)) return at + d;
    if (at - d > lo && /\s/.test(text[at - d]!)) return at - d;
  }
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at;
}
