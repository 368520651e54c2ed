import { z } from 'zod';
import {
  ZChangeEmailRequestSchema,
  ZChangePasswordRequestSchema,
  ZDeleteAccountRequestSchema,
  ZUpdateProfileRequestSchema,
} from '@saljportalen/contract';

/** A validation failure as spec §5 words it: the title for the toast, the text beside the field. */
export interface FormIssue {
  title: string;
  text: string;
}

export const ISSUES = {
  nameRequired: { title: 'Namn krävs', text: 'Ange ditt fullständiga namn.' },
  passwordTooShort: { title: 'Lösenordet är för kort', text: 'Lösenordet måste vara minst 8 tecken' },
  passwordsDiffer: { title: 'Lösenorden matchar inte', text: 'Kontrollera att båda lösenorden är identiska' },
  currentPasswordForPassword: { title: 'Nuvarande lösenord krävs', text: 'Ange ditt nuvarande lösenord för att byta lösenord.' },
  invalidEmail: { title: 'Ogiltig e-postadress', text: 'Ange en giltig e-postadress' },
  currentPasswordForEmail: { title: 'Nuvarande lösenord krävs', text: 'Ange ditt nuvarande lösenord för att byta e-post.' },
  passwordForDelete: { title: 'Lösenord krävs', text: 'Lösenord krävs för att radera kontot.' },
} as const satisfies Record<string, FormIssue>;

/** The issue whose text a field shows, so the toast can carry its title (unknown texts stand alone). */
export function issueFor(text: string): FormIssue {
  return Object.values(ISSUES).find((issue) => issue.text === text) ?? { title: text, text: '' };
}

/**
 * The contract's rule for a field, after the form's own wording for an empty one (spec §5 names
 * the field: 'Ange ditt nuvarande lösenord…'), so the form and the server never disagree.
 */
const requiredThen = <T extends z.ZodType<unknown, string>>(emptyText: string, rule: T, options: { trim?: boolean } = {}) =>
  (options.trim ? z.string().trim() : z.string()).min(1, emptyText).pipe(rule);

const account = {
  profile: ZUpdateProfileRequestSchema.shape,
  password: ZChangePasswordRequestSchema.shape,
  email: ZChangeEmailRequestSchema.shape,
  delete: ZDeleteAccountRequestSchema.shape,
};

export const profileFormSchema = z.object({
  full_name: requiredThen(ISSUES.nameRequired.text, account.profile.full_name, { trim: true }),
  // The field is always there (empty clears the phone), so the contract's rule without its nullish.
  phone: account.profile.phone.unwrap(),
});
export type ProfileFormValues = z.infer<typeof profileFormSchema>;

export const changePasswordFormSchema = z
  .object({
    current_password: requiredThen(ISSUES.currentPasswordForPassword.text, account.password.current_password),
    new_password: account.password.new_password,
    // The form's own field: the server never sees it.
    confirm_password: z.string(),
  })
  .refine((values) => values.new_password === values.confirm_password, {
    message: ISSUES.passwordsDiffer.text,
    path: ['confirm_password'],
  });
export type ChangePasswordFormValues = z.infer<typeof changePasswordFormSchema>;

export const changeEmailFormSchema = z.object({
  new_email: requiredThen(ISSUES.invalidEmail.text, account.email.new_email, { trim: true }),
  current_password: requiredThen(ISSUES.currentPasswordForEmail.text, account.email.current_password),
});
export type ChangeEmailFormValues = z.infer<typeof changeEmailFormSchema>;

export const deleteAccountFormSchema = z.object({
  password: requiredThen(ISSUES.passwordForDelete.text, account.delete.password),
});
export type DeleteAccountFormValues = z.infer<typeof deleteAccountFormSchema>;

/** The first failing field's issue, in the order the fields stand in the form. */
export function firstIssue(errors: Partial<Record<string, { message?: string }>>, order: readonly string[]): FormIssue | undefined {
  const text = order.map((name) => errors[name]?.message).find(Boolean);
  return text ? issueFor(text) : undefined;
}
