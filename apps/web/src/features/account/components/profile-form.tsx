import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { TProfileResponse } from '@saljportalen/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { unprintableWarning } from '@/lib/printable';
import { Input } from '@/components/ui/input';
import { notify, notifyFailure } from '@/lib/toast';
import { firstIssue, profileFormSchema, type ProfileFormValues } from '../account-forms';
import { useUpdateProfile } from '../api/update-profile';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';

const FIELD_ORDER = ['full_name', 'phone'] as const;

/** spec §2 account settings: full name (required), phone (optional), e-mail read-only. */
export function ProfileForm({ user }: { user: TProfileResponse['user'] }) {
  const titleId = useId();
  const updateProfile = useUpdateProfile();
  const form = useForm<ProfileFormValues>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: { full_name: user.full_name, phone: user.phone ?? '' },
  });
  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        await updateProfile.mutateAsync(values);
        // The fields show what was stored: the contract's rules (which the server applies too) trimmed them.
        form.reset({ full_name: values.full_name, phone: values.phone ?? '' });
        notify.success('Profil uppdaterad');
      } catch (error) {
        showRefusalAtFields(form, error, FIELD_ORDER);
        notifyFailure('Fel vid uppdatering', error);
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
        <CardTitle id={titleId}>Profil</CardTitle>
      </CardHeader>
      <CardContent>
        <form aria-labelledby={titleId} onSubmit={onSubmit} noValidate className="space-y-4">
          <Field label="Fullständigt namn" warning={unprintableWarning(form.watch('full_name'))} error={errors.full_name?.message}>
            <Input autoComplete="name" maxLength={TEXT_LIMITS.name} {...form.register('full_name')} />
          </Field>
          <Field label="Telefon" hint="Valfritt." error={errors.phone?.message}>
            <Input type="tel" autoComplete="tel" inputMode="tel" maxLength={TEXT_LIMITS.phone} {...form.register('phone')} />
          </Field>
          {/* A pupil of a class list signs in with a username until an address is given (issue 31). */}
          {user.username && user.email === user.username ? (
            <Field
              label="Användarnamn"
              hint="Du loggar in med ditt användarnamn. Vill du logga in med e-post? Lägg till en adress längre ner."
            >
              <Input value={user.username} readOnly />
            </Field>
          ) : (
            <Field label="E-post" hint="Byt e-postadress i formuläret längre ner.">
              <Input type="email" value={user.email} readOnly />
            </Field>
          )}
          <Button type="submit" variant="brand" disabled={isSubmitting}>
            {isSubmitting ? 'Sparar...' : 'Spara profil'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
