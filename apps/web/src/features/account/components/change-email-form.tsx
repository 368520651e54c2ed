import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify, notifyFailure } from '@/lib/toast';
import { PasswordInput } from '@/components/ui/password-input';
import { changeEmailFormSchema, firstIssue, type ChangeEmailFormValues } from '../account-forms';
import { useChangeEmail } from '../api/change-email';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';

const FIELD_ORDER = ['new_email', 'current_password'] as const;

export function ChangeEmailForm() {
  const titleId = useId();
  const changeEmail = useChangeEmail();
  const form = useForm<ChangeEmailFormValues>({
    resolver: zodResolver(changeEmailFormSchema),
    defaultValues: { new_email: '', current_password: '' },
  });
  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        await changeEmail.mutateAsync(values);
        form.reset();
        notify.success('E-post uppdaterad', `Du loggar nu in med ${values.new_email}.`);
      } catch (error) {
        showRefusalAtFields(form, error, FIELD_ORDER);
        notifyFailure('Fel vid e-poständring', error);
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
        <CardTitle id={titleId}>Byt e-postadress</CardTitle>
      </CardHeader>
      <CardContent>
        <form aria-labelledby={titleId} onSubmit={onSubmit} noValidate className="space-y-4">
          <Field label="Ny e-postadress" error={errors.new_email?.message}>
            <Input type="email" autoComplete="email" inputMode="email" maxLength={TEXT_LIMITS.email} {...form.register('new_email')} />
          </Field>
          <Field label="Nuvarande lösenord" error={errors.current_password?.message}>
            <PasswordInput autoComplete="current-password" maxLength={TEXT_LIMITS.password} {...form.register('current_password')} />
          </Field>
          <Button type="submit" variant="brand" disabled={isSubmitting}>
            {isSubmitting ? 'Sparar...' : 'Byt e-postadress'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
