import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BreakableText } from './breakable-text.tsx';

const html = (text: string) => render(<BreakableText>{text}</BreakableText>).container.innerHTML;

describe('BreakableText', () => {
  it('may wrap after a dot, an underscore or a hyphen and before an at sign, nowhere else', () => {
    expect(html('luis.martinez')).toBe('luis.<wbr>martinez');
    expect(html('ana_maria-lopez@norte.example')).toBe('ana_<wbr>maria-<wbr>lopez<wbr>@norte.<wbr>example');
    expect(html('Persona 1')).toBe('Persona 1');
  });

  it('reads as the text itself, ends and doubled marks included', () => {
    for (const text of ['luis.', '.oculto', 'a..b', '@', 'x@', '']) {
      expect(render(<BreakableText>{text}</BreakableText>).container.textContent).toBe(text);
    }
  });
});
