import { describe, expect, it } from 'vitest';
import { USERNAME_PATTERN } from '@saljportalen/contract';
import { firstFreeUsername, foldName, usernameStem } from './make-username.js';

describe('usernameStem', () => {
  it('is the folded first name, a dot and two letters of the last name', () => {
    expect(usernameStem('Alva Öberg')).toBe('alva.ob');
    expect(usernameStem('Åsa Ärlig')).toBe('asa.ar');
    expect(usernameStem('Émile Zoë Lindén')).toBe('emile.li');
    expect(usernameStem('  OLLE   Svensson ')).toBe('olle.sv');
  });

  it('never gives the whole surname: one letter of a two-letter one', () => {
    expect(usernameStem('Li Ek')).toBe('li.e');
    expect(usernameStem('Bo Å')).toBe('bo.a');
  });

  it('keeps a double first name and folds letters without a plain form', () => {
    expect(usernameStem('Anna-Karin Nilsson')).toBe('anna-karin.ni');
    expect(usernameStem('Søren Weiß')).toBe('soren.we');
  });

  it('always matches the contract’s username pattern', () => {
    for (const name of ['Alva Öberg', 'Li Ek', 'Anna-Karin Nilsson', 'Søren Weiß', '李 王', 'Alva', 'Omar Al-Sayed']) {
      expect(usernameStem(name), name).toMatch(USERNAME_PATTERN);
    }
  });
});

describe('firstFreeUsername', () => {
  it('takes the stem when free, then 2, 3, …', () => {
    expect(firstFreeUsername('alva.ob', new Set())).toBe('alva.ob');
    expect(firstFreeUsername('alva.ob', new Set(['alva.ob']))).toBe('alva.ob2');
    expect(firstFreeUsername('alva.ob', new Set(['alva.ob', 'alva.ob2', 'alva.ob4']))).toBe('alva.ob3');
  });
});

describe('foldName', () => {
  it('folds Swedish and other accented letters to lower-case ASCII', () => {
    expect(foldName('ÅÄÖ åäö é ü')).toBe('aao aao e u');
  });
});
