import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ZChangeEmailRequestSchema, ZChangePasswordRequestSchema, ZUpdateProfileRequestSchema } from '@saljportalen/contract';
import {
  ISSUES,
  changeEmailFormSchema,
  changePasswordFormSchema,
  deleteAccountFormSchema,
  firstIssue,
  issueFor,
  profileFormSchema,
} from './account-forms';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]));

describe('change password form', () => {
  it('requires the current password, 8 characters and a matching confirmation', () => {
    const result = changePasswordFormSchema.safeParse({ current_password: '', new_password: 'kort', confirm_password: 'annat' });
    expect(messages(result)).toEqual({
      current_password: ISSUES.currentPasswordForPassword.text,
      new_password: 'Lösenordet måste vara minst 8 tecken',
      confirm_password: 'Kontrollera att båda lösenorden är identiska',
    });
  });
  it('accepts exactly 8 characters confirmed', () => {
    expect(
      changePasswordFormSchema.safeParse({ current_password: 'x', new_password: '12345678', confirm_password: '12345678' }).success,
    ).toBe(true);
  });
});

describe('change e-mail form', () => {
  it('wants an at-sign and the current password', () => {
    expect(messages(changeEmailFormSchema.safeParse({ new_email: 'elsa.demo.se', current_password: '' }))).toEqual({
      new_email: 'Ange en giltig e-postadress',
      current_password: 'Ange ditt nuvarande lösenord för att byta e-post.',
    });
  });
  it('trims the address', () => {
    expect(changeEmailFormSchema.parse({ new_email: '  ny@demo.se ', current_password: 'x' }).new_email).toBe('ny@demo.se');
  });
});

describe('delete account form', () => {
  it('wants the password, and sends it as typed', () => {
    expect(messages(deleteAccountFormSchema.safeParse({ password: '' }))).toEqual({
      password: 'Lösenord krävs för att radera kontot.',
    });
    expect(deleteAccountFormSchema.parse({ password: ' mitt lösen ' })).toEqual({ password: ' mitt lösen ' });
  });
});

describe('profile form', () => {
  it('requires a name after trimming; the phone is optional', () => {
    expect(messages(profileFormSchema.safeParse({ full_name: '   ', phone: '' }))).toEqual({ full_name: ISSUES.nameRequired.text });
    expect(profileFormSchema.parse({ full_name: ' Åsa Öst ', phone: ' ' })).toEqual({ full_name: 'Åsa Öst', phone: '' });
  });
});

describe('issue titles', () => {
  it('pairs each field text with the spec title', () => {
    expect(issueFor('Lösenordet måste vara minst 8 tecken').title).toBe('Lösenordet är för kort');
    expect(issueFor('Ange en giltig e-postadress').title).toBe('Ogiltig e-postadress');
    expect(issueFor('Ange ditt nuvarande lösenord för att byta e-post.').title).toBe('Nuvarande lösenord krävs');
  });
  it('takes the first failing field in form order', () => {
    const errors = { confirm_password: { message: ISSUES.passwordsDiffer.text }, new_password: { message: ISSUES.passwordTooShort.text } };
    expect(firstIssue(errors, ['current_password', 'new_password', 'confirm_password'])).toEqual(ISSUES.passwordTooShort);
  });
});

/** The forms check with the contract's rules (issue 16): what a form lets through, the server accepts. */
describe('account forms and the contract agree', () => {
  const text = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.constantFrom('', ' ', 'a@b', 'a@b.se', 'x'.repeat(121), `${'x'.repeat(250)}@b.se`),
  );

  it('a profile the form accepts is a valid profile request', () => {
    fc.assert(
      fc.property(text, text, (full_name, phone) => {
        const form = profileFormSchema.safeParse({ full_name, phone });
        if (form.success) expect(ZUpdateProfileRequestSchema.safeParse(form.data).success).toBe(true);
      }),
    );
  });

  it('a password change the form accepts is a valid request', () => {
    fc.assert(
      fc.property(text, text, (current_password, new_password) => {
        const form = changePasswordFormSchema.safeParse({ current_password, new_password, confirm_password: new_password });
        if (form.success) expect(ZChangePasswordRequestSchema.safeParse(form.data).success).toBe(true);
      }),
    );
  });

  it('an e-mail change the form accepts is a valid request; an address without a domain is refused in the form', () => {
    fc.assert(
      fc.property(text, text, (new_email, current_password) => {
        const form = changeEmailFormSchema.safeParse({ new_email, current_password });
        if (form.success) expect(ZChangeEmailRequestSchema.safeParse(form.data).success).toBe(true);
      }),
    );
    const refused = changeEmailFormSchema.safeParse({ new_email: 'a@b', current_password: 'x' });
    expect(refused.success ? [] : refused.error.issues.map((issue) => issue.message)).toEqual([ISSUES.invalidEmail.text]);
  });
});
