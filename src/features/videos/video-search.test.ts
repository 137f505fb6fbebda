import { describe, expect, it } from 'vitest';
import { addressOf, validateVideoSearch, videoSearchKeys } from './video-search.ts';

describe('validateVideoSearch', () => {
  it('keeps the six filters as text', () => {
    const search = { q: 'gatos', tag: 'in:3,7', fav: 'eq:true', 'upload-date': 'tm', score: 'gte:4', 'not-seen': 'eq:true' };
    expect(validateVideoSearch(search)).toEqual(search);
  });

  it('reads numbers and booleans the router parsed back as text', () => {
    expect(validateVideoSearch({ score: 5, fav: true })).toEqual({ score: '5', fav: 'true' });
  });

  it('drops invalid values (objects, arrays, blanks, NaN, null) and unknown keys, never throws', () => {
    const result = validateVideoSearch({ q: '  ', tag: { a: 1 }, fav: ['x'], score: Number.NaN, 'not-seen': null, other: 'x' });
    expect(Object.entries(result).filter(([, value]) => value !== undefined)).toEqual([]);
    expect(result).not.toHaveProperty('other');
  });

  it('sets dropped keys to undefined so the raw value cannot leak through the router’s merge', () => {
    expect(validateVideoSearch({ tag: { a: 1 } })).toHaveProperty('tag', undefined);
  });
});

describe('addressOf', () => {
  it('names every filter key, the ones not set as undefined, so the layout does not retain them', () => {
    const address = addressOf({ q: 'gatos', tag: 'in:3' });
    expect(address).toEqual({ q: 'gatos', tag: 'in:3' });
    for (const key of videoSearchKeys) expect(address).toHaveProperty(key);
    expect(address).toHaveProperty('fav', undefined);
  });
});
