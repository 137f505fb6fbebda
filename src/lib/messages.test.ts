import { describe, expect, it } from 'vitest';
import { formatAverage, libraryMessages } from './messages.ts';

describe('an average score as Spanish writes it', () => {
  const intl = new Intl.NumberFormat('es', { maximumFractionDigits: 1 });

  it('agrees with Intl.NumberFormat("es") on every hundredth from 0 to 5', () => {
    for (let hundredths = 0; hundredths <= 500; hundredths++) {
      const average = hundredths / 100;
      expect(formatAverage(average), String(average)).toBe(intl.format(average));
    }
  });

  it('reads a card\'s stars with a decimal comma', () => {
    expect(libraryMessages.averageRating(3.46)).toBe('Puntuación media: 3,5 de 5');
    expect(libraryMessages.averageRating(4)).toBe('Puntuación media: 4 de 5');
    expect(libraryMessages.averageRating(0.04)).toBe('Puntuación media: 0 de 5');
  });
});
