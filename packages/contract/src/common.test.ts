import { describe, expect, it } from 'vitest';
import { ZAdminGroupListQuerySchema, ZDateSchema, ZEmailSchema, ZUnattributedOrdersQuerySchema, idSchema } from './index.js';

/** Text that `Number()` reads as a number but a person would not write for one (issue 15). */
const NOT_PLAIN_DECIMAL = [
  '0x10',
  '0X10',
  '0b1',
  '0o7',
  '+1',
  '-0',
  '00001',
  '01',
  '1.0',
  '1.',
  ' 1',
  '1 ',
  '\t1',
  '1\n',
  '1e1',
  '1E1',
  '1_000',
  'Infinity',
  '１',
  '',
];

describe('ZEmailSchema', () => {
  const message = (value: unknown) => ZEmailSchema.safeParse(value).error?.issues[0]?.message;

  it('accepts å, ä and ö before and after the @ (issue 19)', () => {
    for (const address of ['åsa.öberg@skolan.se', 'Änglund@exempel.se', 'björn@åäö.se', 'anna+klass6b@skolan.se', "o'hara@exempel.com"]) {
      expect(ZEmailSchema.parse(address), address).toBe(address);
    }
  });

  it('trims, and writes ä as one letter however it was typed', () => {
    const decomposed = 'a\u0308nglund@exempel.se';
    expect(ZEmailSchema.parse(`  ${decomposed} `)).toBe('\u00e4nglund@exempel.se');
  });

  it('names what is wrong, in Swedish', () => {
    expect(message('')).toBe('E-post krävs');
    expect(message(undefined)).toBe('E-post krävs');
    expect(message(`${'å'.repeat(250)}@x.se`)).toBe('E-postadressen får vara högst 254 tecken');
    for (const bad of [
      'åsa',
      'åsa@',
      '@skolan.se',
      'åsa@skolan',
      'å sa@skolan.se',
      '.åsa@skolan.se',
      'åsa.@skolan.se',
      'å..sa@skolan.se',
      'åsa@@skolan.se',
      'åsa@skolan..se',
      'åsa@-skolan.se',
      'åsa@skolan.s',
    ]) {
      expect(message(bad), bad).toBe('Ange en giltig e-postadress');
    }
  });

  it('refuses every address an erased account can have, however it is spelled (decision 050)', () => {
    for (const reserved of [
      'borttagen-12@raderad.invalid',
      'BORTTAGEN-12@RADERAD.INVALID',
      ' borttagen-12@raderad.invalid ',
      'vem@som.helst.invalid',
    ]) {
      expect(message(reserved), reserved).toBe('Adresser som slutar på .invalid finns inte. Ange en riktig e-postadress.');
    }
    // The tombstone itself cannot even be typed: its ':' is no letter of any address.
    expect(message('borttagen:12@raderad.invalid')).toBeDefined();
    expect(ZEmailSchema.parse('invalid@skolan.se')).toBe('invalid@skolan.se');
  });
});

describe('ZDateSchema', () => {
  it('accepts real calendar days only', () => {
    expect(ZDateSchema.safeParse('2024-02-29').success).toBe(true);
    expect(ZDateSchema.safeParse('2025-02-29').success).toBe(false);
    expect(ZDateSchema.safeParse('2025-02-30').success).toBe(false);
    expect(ZDateSchema.safeParse('2025-13-01').success).toBe(false);
    expect(ZDateSchema.safeParse('2025-1-01').success).toBe(false);
  });
});

describe('idSchema', () => {
  it('accepts positive integers up to PostgreSQL integer, as numbers or as text, and nothing else', () => {
    const ids = idSchema();
    expect([1, '42', 2_147_483_647, '2147483647'].map((id) => ids.safeParse(id).data)).toEqual([1, 42, 2_147_483_647, 2_147_483_647]);
    for (const id of [2_147_483_648, '2147483648', 2 ** 53 + 2, 0, -1, 1.5, 'abc', '', true, null, [], {}]) {
      expect(ids.safeParse(id).error?.issues[0]?.message, String(id)).toBe('Ogiltigt id');
    }
  });

  it('reads only plain decimal text: no sign, leading zero, space, fraction, exponent or other base', () => {
    const ids = idSchema();
    for (const text of NOT_PLAIN_DECIMAL) {
      expect(ids.safeParse(text).error?.issues[0]?.message, JSON.stringify(text)).toBe('Ogiltigt id');
    }
    expect(['1', '10', '16', '100000'].map((text) => ids.safeParse(text).data)).toEqual([1, 10, 16, 100_000]);
  });

  it('words its refusals as the form does', () => {
    const group = idSchema('Ogiltig grupp', 'Fyll i alla fält');
    expect(group.safeParse(undefined).error?.issues[0]?.message).toBe('Fyll i alla fält');
    expect(group.safeParse(2 ** 31).error?.issues[0]?.message).toBe('Ogiltig grupp');
  });
});

describe('page numbers, sizes and offsets', () => {
  it('are plain decimal text too', () => {
    const fields = [
      { schema: ZAdminGroupListQuerySchema, field: 'limit' },
      { schema: ZAdminGroupListQuerySchema, field: 'offset' },
      { schema: ZUnattributedOrdersQuerySchema, field: 'page' },
      { schema: ZUnattributedOrdersQuerySchema, field: 'page_size' },
    ];
    for (const { schema, field } of fields) {
      // An empty field means "not given" in the admin lists; everything else that is not plain decimal is refused.
      for (const text of NOT_PLAIN_DECIMAL.filter((text) => text !== '' || schema !== ZAdminGroupListQuerySchema)) {
        expect(schema.safeParse({ [field]: text }).success, `${field}=${JSON.stringify(text)}`).toBe(false);
      }
      expect((schema.safeParse({ [field]: '16' }).data as Record<string, unknown>)[field], field).toBe(16);
    }
    expect(ZAdminGroupListQuerySchema.parse({ offset: '0' }).offset).toBe(0);
  });
});
