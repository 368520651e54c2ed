import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ZAddGroupUserRequestSchema,
  ZCreateGroupRequestSchema,
  ZRegisterSellerRequestSchema,
  ZRenameGroupRequestSchema,
  ZUpdateGroupRequestSchema,
  ZUpdateProfileRequestSchema,
} from './index.js';

/**
 * Every name, title and phone number a person types, as a body carrying `text` in that one field
 * and the field's value read back from the parsed body.
 */
const FIELDS: Record<string, { schema: z.ZodType; body: (text: string) => unknown; read: (parsed: never) => unknown }> = {
  'registrering: full_name': {
    schema: ZRegisterSellerRequestSchema,
    body: (text) => ({ full_name: text, email: 'elev@demo.se', password: 'hemligt123', group_code: 'BJK6B2' }),
    read: (parsed: { full_name: string }) => parsed.full_name,
  },
  'profil: full_name': {
    schema: ZUpdateProfileRequestSchema,
    body: (text) => ({ full_name: text }),
    read: (parsed: { full_name: string }) => parsed.full_name,
  },
  'profil: phone': {
    schema: ZUpdateProfileRequestSchema,
    body: (text) => ({ full_name: 'Elsa', phone: text }),
    read: (parsed: { phone: string }) => parsed.phone,
  },
  'ny grupp: group_name': {
    schema: ZCreateGroupRequestSchema,
    body: (text) => ({ group_name: text }),
    read: (parsed: { group_name: string }) => parsed.group_name,
  },
  'ny grupp: admin.full_name': {
    schema: ZCreateGroupRequestSchema,
    body: (text) => ({ group_name: 'Klass 6B', admin: { email: 'larare@demo.se', password: 'hemligt', full_name: text } }),
    read: (parsed: { admin: { full_name: string } }) => parsed.admin.full_name,
  },
  'ny grupp: admin.phone': {
    schema: ZCreateGroupRequestSchema,
    body: (text) => ({ group_name: 'Klass 6B', admin: { email: 'larare@demo.se', password: 'hemligt', full_name: 'Lärare', phone: text } }),
    read: (parsed: { admin: { phone?: string } }) => parsed.admin.phone,
  },
  'lägg till person: full_name': {
    schema: ZAddGroupUserRequestSchema,
    body: (text) => ({ email: 'ny@demo.se', role: 'seller', full_name: text }),
    read: (parsed: { full_name?: string }) => parsed.full_name,
  },
  'lägg till person: phone': {
    schema: ZAddGroupUserRequestSchema,
    body: (text) => ({ email: 'ny@demo.se', role: 'seller', phone: text }),
    read: (parsed: { phone?: string }) => parsed.phone,
  },
  'byt namn: name': {
    schema: ZRenameGroupRequestSchema,
    body: (text) => ({ name: text }),
    read: (parsed: { name: string }) => parsed.name,
  },
  'ändra grupp: name': {
    schema: ZUpdateGroupRequestSchema,
    body: (text) => ({ name: text }),
    read: (parsed: { name?: string }) => parsed.name,
  },
};

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const control = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }), fc.constantFrom(0x2028, 0x2029))
  .map((code) => String.fromCharCode(code));
const letter = fc.constantFrom('N', 'o', 'a', 'h', 'Å', 'ö', ' ', '=', '+', '-', '@', "'", '|', '1');
const text = fc.string({ unit: fc.oneof(letter, control), minLength: 1, maxLength: 30 });

describe('names and titles a person types', () => {
  it('are kept as one line: no control character or line break reaches the server, whichever form sends it', () => {
    for (const [field, { schema, body, read }] of Object.entries(FIELDS)) {
      fc.assert(
        fc.property(text, (typed) => {
          const parsed = schema.safeParse(body(typed));
          if (!parsed.success) return;
          const value = read(parsed.data as never);
          if (value === undefined) return;
          expect(value, field).toBeTypeOf('string');
          expect(value as string, `${field}: ${JSON.stringify(typed)}`).not.toMatch(CONTROL);
          expect(value, field).toBe((value as string).trim());
        }),
        { numRuns: 200 },
      );
    }
  }, 60_000);

  it('turn a line break into a space, so the formula after it stays inside the name; a phone number holds no formula at all', () => {
    for (const [field, { schema, body, read }] of Object.entries(FIELDS)) {
      if (field.endsWith('phone')) {
        expect(schema.safeParse(body("070\r\n=cmd|' /C calc'!A0")).success, field).toBe(false);
        const parsed = schema.safeParse(body('070-123\r\n45 67\u0000'));
        expect(parsed.success, field).toBe(true);
        expect(read(parsed.data as never), field).toBe('070-123 45 67');
        continue;
      }
      const parsed = schema.safeParse(body("Noah\r\n=cmd|' /C calc'!A0\u0000"));
      expect(parsed.success, field).toBe(true);
      expect(read(parsed.data as never), field).toBe("Noah =cmd|' /C calc'!A0");
    }
  });

  it('take a phone number as people write one, and nothing else', () => {
    const phoneOf = (phone: string) => ZUpdateProfileRequestSchema.safeParse({ full_name: 'Elsa', phone });
    for (const phone of ['070-123 45 67', '+46 70 123 45 67', '(08) 123 456', '08-12 34 56', '']) {
      expect(phoneOf(phone).success, phone).toBe(true);
    }
    for (const phone of ['abc ☎️ 123', '070 abc', '12345', '+', '1'.repeat(16), '070--123 45 67 ☎']) {
      expect(phoneOf(phone).error?.issues[0]?.message, phone).toBe('Ange ett telefonnummer med siffror, till exempel 070-123 45 67');
    }
    expect(phoneOf('0'.repeat(41)).error?.issues[0]?.message).toBe('Telefonnumret får vara högst 40 tecken');
  });

  it('count a name of control characters alone as no name', () => {
    for (const field of ['registrering: full_name', 'profil: full_name', 'ny grupp: group_name', 'ny grupp: admin.full_name']) {
      const { schema, body } = FIELDS[field]!;
      expect(schema.safeParse(body('\r\n\t\u0007')).success, field).toBe(false);
    }
    expect(ZAddGroupUserRequestSchema.safeParse({ email: 'ny@demo.se', role: 'admin', full_name: '\r\n' }).error?.issues[0]?.message).toBe(
      'Namn krävs för administratörer',
    );
  });
});
