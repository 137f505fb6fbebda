import { describe, expect, it } from 'vitest';
import { searchForTab, tabOf, validateVideoSearch, videoSearchKeys } from './video-search.ts';

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

describe('list tabs', () => {
  it('Favoritos and No vistos set their filter to equals-true; Todos clears every filter', () => {
    const search = { q: 'gatos', score: 'eq:5', 'not-seen': 'eq:true' };
    expect(searchForTab('favoritos', search)).toEqual({ q: 'gatos', score: 'eq:5', fav: 'eq:true' });
    expect(searchForTab('no-vistos', { ...search, fav: 'eq:true' })).toEqual(search);
    expect(searchForTab('todos', search)).toEqual({});
  });

  it('sets the filters a tab clears to undefined, so the layout does not retain them', () => {
    const search = { q: 'gatos', fav: 'eq:true', 'not-seen': 'eq:true' };
    expect(searchForTab('favoritos', search)).toHaveProperty('not-seen', undefined);
    expect(searchForTab('no-vistos', search)).toHaveProperty('fav', undefined);
    const all = searchForTab('todos', search);
    for (const key of videoSearchKeys) expect(all).toHaveProperty(key, undefined);
  });

  it('reads the active tab from the filters', () => {
    expect(tabOf({})).toBe('todos');
    expect(tabOf({ fav: 'eq:true' })).toBe('favoritos');
    expect(tabOf({ 'not-seen': 'eq:true' })).toBe('no-vistos');
    expect(tabOf({ fav: 'eq:false' })).toBe('todos');
  });
});
