import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { notify, notifyFailure } from '@/lib/toast';
import { PasswordInput } from '@/components/ui/password-input';
import { changePasswordFormSchema, firstIssue, type ChangePasswordFormValues } from '../account-forms';
import { useChangePassword } from '../api/change-password';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';

const FIELD_ORDER = ['current_password', 'new_password', 'confirm_password'] as const;

export function ChangePasswordForm({ email }: { email: string }) {
  const titleId = useId();
  const changePassword = useChangePassword();
  const form = useForm<ChangePasswordFormValues>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
  });
  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        await changePassword.mutateAsync({ current_password: values.current_password, new_password: values.new_password });
        form.reset();
        notify.success('Lösenord ändrat');
      } catch (error) {
        showRefusalAtFields(form, error, FIELD_ORDER);
        notifyFailure('Fel vid lösenordsändring', error);
      }
    },
    (errors) => {
      const issue = firstIssue(errors, FIELD_ORDER);
      if (issue) notify.error(issue.title, issue.text);
    },
  );
  const { errors, isSubmitting } = form.formState;
  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>Byt lösenord</CardTitle>
      </CardHeader>
      <CardContent>
        <form aria-labelledby={titleId} onSubmit={onSubmit} noValidate className="space-y-4">
          {/* Lets a password manager file the new password under the right account. */}
          <input type="email" autoComplete="username" value={email} readOnly hidden />
          <Field label="Nuvarande lösenord" error={errors.current_password?.message}>
            <PasswordInput autoComplete="current-password" maxLength={TEXT_LIMITS.password} {...form.register('current_password')} />
          </Field>
          <Field label="Nytt lösenord" hint="Minst 8 tecken." error={errors.new_password?.message}>
            <PasswordInput autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.register('new_password')} />
          </Field>
          <Field label="Bekräfta nytt lösenord" error={errors.confirm_password?.message}>
            <PasswordInput autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.register('confirm_password')} />
          </Field>
          <Button type="submit" variant="brand" disabled={isSubmitting}>
            {isSubmitting ? 'Sparar...' : 'Byt lösenord'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
