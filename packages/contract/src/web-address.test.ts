import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ZAddGroupUserRequestSchema,
  ZCreateGroupRequestSchema,
  ZGuardianConsentRequestSchema,
  ZPublicNameRequestSchema,
  ZRegisterSellerRequestSchema,
  ZRenameGroupRequestSchema,
  ZUpdateGroupRequestSchema,
  ZUpdateProfileRequestSchema,
} from './index.js';
import { RESERVED_NAME_MESSAGE } from './common.js';
import { NAME_WEB_ADDRESS_MESSAGE, containsWebAddress } from './web-address.js';

/** Every name a person sets that another person sees (issue 28), as a body carrying `name` in that field. */
const NAMES: Record<string, { schema: z.ZodType; body: (name: string) => unknown }> = {
  'registrering: full_name': {
    schema: ZRegisterSellerRequestSchema,
    body: (name) => ({ full_name: name, email: 'elev@demo.se', password: 'hemligt123', group_code: 'BJK6B2' }),
  },
  'profil: full_name': { schema: ZUpdateProfileRequestSchema, body: (name) => ({ full_name: name }) },
  'vårdnadshavarens nya konto: full_name': {
    schema: ZGuardianConsentRequestSchema,
    body: (name) => ({
      code: 'x'.repeat(43),
      decision: 'approve',
      account: 'new',
      full_name: name,
      email: 'mamma@demo.se',
      password: 'hemligt123',
    }),
  },
  'alias (eget eller valt av vårdnadshavare)': {
    schema: ZPublicNameRequestSchema,
    body: (name) => ({ public_name: 'alias', alias: name }),
  },
  'ny grupp: group_name': { schema: ZCreateGroupRequestSchema, body: (name) => ({ group_name: name }) },
  'ny grupp: admin.full_name': {
    schema: ZCreateGroupRequestSchema,
    body: (name) => ({ group_name: 'Klass 6B', admin: { email: 'larare@demo.se', password: 'hemligt', full_name: name } }),
  },
  'lägg till person: full_name': { schema: ZAddGroupUserRequestSchema, body: (name) => ({ email: 'ny@demo.se', full_name: name }) },
  'byt namn: name': { schema: ZRenameGroupRequestSchema, body: (name) => ({ name }) },
  'ändra grupp: name': { schema: ZUpdateGroupRequestSchema, body: (name) => ({ name }) },
};

const ADDRESSES = [
  'Vinn 5000 kr! Logga in på https://exempel.se',
  'http://exempel.se',
  'HTTPS://EXEMPEL.SE',
  'Kolla www.exempel.se',
  'WWW.Exempel.com',
  'exempel.se/x',
  'Elsa exempel.se',
  'Exempel.SE',
  'vinn.lol',
  'Klicka exempel.nu/vinst',
  'mamma@exempel.se',
  'exempel。se',
];
const NAMES_THAT_PASS = [
  'Noah Andersson',
  'A.B. Berg',
  'St.Eriks IK',
  'J. R. Tolkien',
  'Klass 6B Björkskolan',
  'Anna-Karin Öberg',
  'Dr. Nilsson',
  '1.5 Ekskolan',
];

describe('a web address in a name (issue 28)', () => {
  it('is found in every form a link is written in, and initials and abbreviations are not', () => {
    for (const address of ADDRESSES) expect(containsWebAddress(address), address).toBe(true);
    for (const name of NAMES_THAT_PASS) expect(containsWebAddress(name), name).toBe(false);
  });

  it('is refused with one Swedish message in every name a person sets that someone else sees', () => {
    for (const [field, { schema, body }] of Object.entries(NAMES)) {
      for (const address of ADDRESSES) {
        const parsed = schema.safeParse(body(address));
        expect(parsed.success, `${field}: ${address}`).toBe(false);
        expect(
          parsed.error?.issues.map((issue) => issue.message),
          `${field}: ${address}`,
        ).toContain(NAME_WEB_ADDRESS_MESSAGE);
      }
      expect(schema.safeParse(body('Noah A.B. Andersson')).success, field).toBe(true);
    }
  });

  it("refuses the erased account's name as a person's name, in any case and spacing, and nowhere else", () => {
    const groupNames = new Set(['ny grupp: group_name', 'byt namn: name', 'ändra grupp: name']);
    for (const [field, { schema, body }] of Object.entries(NAMES)) {
      for (const name of ['Borttagen säljare', '  borttagen SÄLJARE ']) {
        const parsed = schema.safeParse(body(name));
        if (groupNames.has(field)) expect(parsed.success, `${field}: ${name}`).toBe(true);
        else
          expect(
            parsed.error?.issues.map((issue) => issue.message),
            `${field}: ${name}`,
          ).toContain(RESERVED_NAME_MESSAGE);
      }
      expect(schema.safeParse(body('Borttagen Andersson')).success, field).toBe(true);
    }
  });
});
