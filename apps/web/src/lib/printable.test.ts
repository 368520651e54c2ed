import { describe, expect, it } from 'vitest';
import { unprintableWarning } from './printable';

describe('unprintableWarning', () => {
  it('says nothing of a name every character of which prints', () => {
    expect(unprintableWarning('Łucja Şahin-Nguyễn')).toBeUndefined();
    expect(unprintableWarning('Alva 🌟 från 6B')).toBeUndefined();
    expect(unprintableWarning(undefined)).toBeUndefined();
  });

  it('names the character that prints as a box, and says the name is saved anyway', () => {
    expect(unprintableWarning('Li 李')).toBe(
      'Tecknet ”李” kan inte skrivas ut i katalogen och på andra utskrifter och blir en ruta där. Namnet sparas ändå.',
    );
    expect(unprintableWarning('李娜 선')).toBe(
      'Tecknen ”李”, ”娜” och ”선” kan inte skrivas ut i katalogen och på andra utskrifter och blir rutor där. Namnet sparas ändå.',
    );
  });
});
