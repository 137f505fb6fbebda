/** The tag name's rules (R-TAG-2, openapi.yaml's `EtiquetaNombre`: 3–50). */
import { describe, expect, it } from 'vitest';
import { validateTagNombre } from './tag-form.rules.ts';

describe('validateTagNombre', () => {
  it('asks for a name when it is empty or only whitespace (blank)', () => {
    for (const nombre of ['', '   ', '\t\n ']) expect(validateTagNombre(nombre)).toEqual({ key: 'required' });
  });

  it('refuses fewer than 3 characters, not counting the spaces around them', () => {
    expect(validateTagNombre('ab')).toEqual({ key: 'tooShort', min: 3 });
    expect(validateTagNombre('  ab  ')).toEqual({ key: 'tooShort', min: 3 });
    expect(validateTagNombre('abc')).toBeNull();
    expect(validateTagNombre(' Ñu ')).toEqual({ key: 'tooShort', min: 3 });
  });

  it('refuses more than 50 characters, counting characters rather than UTF-16 units', () => {
    expect(validateTagNombre('a'.repeat(50))).toBeNull();
    expect(validateTagNombre(` ${'a'.repeat(50)} `)).toBeNull();
    expect(validateTagNombre('a'.repeat(51))).toEqual({ key: 'tooLong', max: 50 });
    // 50 emoji are 50 characters (100 UTF-16 units), as the server counts them.
    expect(validateTagNombre('🎬'.repeat(50))).toBeNull();
    expect(validateTagNombre('🎬'.repeat(51))).toEqual({ key: 'tooLong', max: 50 });
  });
});
