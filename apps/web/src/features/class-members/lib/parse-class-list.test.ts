import { describe, expect, it } from 'vitest';
import { detectDelimiter, parseClassList } from './parse-class-list';

describe('parseClassList', () => {
  it('reads Excel’s Swedish CSV: semicolons, a byte-order mark, a header and Windows line ends', () => {
    const rows = parseClassList('\uFEFFNamn;Vårdnadshavare\r\nAlva Öberg;mamma@example.se\r\nÅke Ek;\r\n');
    expect(rows).toEqual([
      { line: 1, full_name: 'Alva Öberg', guardian_email: 'mamma@example.se', problem: null },
      { line: 2, full_name: 'Åke Ek', guardian_email: '', problem: null },
    ]);
  });

  it('reads tabs from a sheet, first and last name in two columns', () => {
    const rows = parseClassList('Alva\tÖberg\tmamma@example.se\nBror\tÅkesson');
    expect(rows.map((row) => [row.full_name, row.guardian_email])).toEqual([
      ['Alva Öberg', 'mamma@example.se'],
      ['Bror Åkesson', ''],
    ]);
  });

  it('reads commas, and says what is wrong with a row in the contract’s words', () => {
    const rows = parseClassList('Alva Öberg, mamma@example.se\nEnsam\nBror Åkesson, inte@adress');
    expect(rows.map((row) => row.problem)).toEqual([null, 'Skriv både för- och efternamn', 'Ange en giltig e-postadress']);
  });

  it('chooses the delimiter the lines use most', () => {
    expect(detectDelimiter('a;b\nc;d')).toBe(';');
    expect(detectDelimiter('a\tb')).toBe('\t');
    expect(detectDelimiter('a, b')).toBe(',');
    expect(detectDelimiter('Alva Öberg')).toBe(';');
  });
});
