import { z } from 'zod';

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
} as const satisfies Record<string, FormIssue>;

/** The issue whose text a field shows, so the toast can carry its title (unknown texts stand alone). */
export function issueFor(text: string): FormIssue {
  return Object.values(ISSUES).find((issue) => issue.text === text) ?? { title: text, text: '' };
}

/** spec §9: the account's minimum password length (the contract's PASSWORD_MIN_LENGTH, kept out of the bundle). */
const PASSWORD_MIN_LENGTH = 8;

export const profileFormSchema = z.object({
  full_name: z.string().trim().min(1, ISSUES.nameRequired.text).max(120, 'Namnet är för långt'),
  phone: z.string().trim().max(40, 'Telefonnumret är för långt'),
});
export type ProfileFormValues = z.infer<typeof profileFormSchema>;

export const changePasswordFormSchema = z
  .object({
    current_password: z.string().min(1, ISSUES.currentPasswordForPassword.text),
    new_password: z.string().min(PASSWORD_MIN_LENGTH, ISSUES.passwordTooShort.text).max(200, 'Lösenordet är för långt'),
    confirm_password: z.string(),
  })
  .refine((values) => values.new_password === values.confirm_password, {
    message: ISSUES.passwordsDiffer.text,
    path: ['confirm_password'],
  });
export type ChangePasswordFormValues = z.infer<typeof changePasswordFormSchema>;

export const changeEmailFormSchema = z.object({
  // spec §5: the address must contain an at-sign; the server checks the rest.
  new_email: z
    .string()
    .trim()
    .refine((value) => value.includes('@'), ISSUES.invalidEmail.text),
  current_password: z.string().min(1, ISSUES.currentPasswordForEmail.text),
});
export type ChangeEmailFormValues = z.infer<typeof changeEmailFormSchema>;

/** The first failing field's issue, in the order the fields stand in the form. */
export function firstIssue(errors: Partial<Record<string, { message?: string }>>, order: readonly string[]): FormIssue | undefined {
  const text = order.map((name) => errors[name]?.message).find(Boolean);
  return text ? issueFor(text) : undefined;
}
