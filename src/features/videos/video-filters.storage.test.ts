import { describe, expect, it } from 'vitest';
import { clearStoredFilters, readStoredFilters, writeStoredFilters } from './video-filters.storage.ts';

describe('filters in session storage (R-LIB-12: keys q, tag, fav, upload-date, score, not-seen)', () => {
  it('writes the whole set under the six keys, removing the ones not in it', () => {
    window.sessionStorage.setItem('score', 'gte:2');
    window.sessionStorage.setItem('token-de-otro', 'x');
    writeStoredFilters({ q: 'gatos', tag: 'in:3,7', 'not-seen': 'eq:true' });
    expect(window.sessionStorage.getItem('q')).toBe('gatos');
    expect(window.sessionStorage.getItem('tag')).toBe('in:3,7');
    expect(window.sessionStorage.getItem('not-seen')).toBe('eq:true');
    expect(window.sessionStorage.getItem('score')).toBeNull();
    expect(window.sessionStorage.getItem('token-de-otro')).toBe('x');
    expect(readStoredFilters()).toEqual({ q: 'gatos', tag: 'in:3,7', 'not-seen': 'eq:true' });
  });

  it('clears all six keys and nothing else', () => {
    writeStoredFilters({ q: 'gatos', fav: 'eq:true', 'upload-date': 'tm' });
    window.sessionStorage.setItem('otra', 'y');
    clearStoredFilters();
    expect(readStoredFilters()).toEqual({});
    expect(window.sessionStorage.getItem('otra')).toBe('y');
  });

  it('treats a storage that refuses to work as empty, without failing', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    } as unknown as Storage;
    expect(readStoredFilters(broken)).toEqual({});
    expect(() => writeStoredFilters({ q: 'gatos' }, broken)).not.toThrow();
    expect(readStoredFilters(null)).toEqual({});
  });
});
