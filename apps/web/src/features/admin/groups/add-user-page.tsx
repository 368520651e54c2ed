import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link, useNavigate, useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { unprintableWarning } from '@/lib/printable';
import { Input, Select } from '@/components/ui/input';
import { paths } from '@/lib/paths';
import { errorMessage, notify } from '@/lib/toast';
import { isNotFound, isSessionFailure, notifyFailure, parseId } from '../admin-page-helpers';
import { BackLink } from '../components/back-link';
import { useAddGroupUser } from './api/add-group-user';
import { useGroup } from './api/get-group';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';

/** spec §5 add user: e-mail required; the name required for an administrator; phone optional. */
const addUserSchema = z
  .object({
    email: z.string().trim().min(1, 'E-post krävs'),
    role: z.enum(['seller', 'admin']),
    full_name: z.string().trim(),
    phone: z.string().trim(),
  })
  .refine((values) => values.role !== 'admin' || values.full_name !== '', {
    message: 'Namn krävs för administratörer',
    path: ['full_name'],
  });
type AddUserForm = z.infer<typeof addUserSchema>;

/** spec §2 /admin/groups/{id}/add-user: returns to the group when done. */
export function AddUserPage() {
  const params = useParams();
  const groupId = parseId(params.id);
  const navigate = useNavigate();
  const group = useGroup(groupId);
  const addUser = useAddGroupUser(groupId ?? 0);
  const form = useForm<AddUserForm>({
    resolver: zodResolver(addUserSchema),
    defaultValues: { email: '', role: 'seller', full_name: '', phone: '' },
  });

  useEffect(() => {
    if (group.isError && !isNotFound(group.error)) notifyFailure('Kunde inte hämta gruppen', group.error);
  }, [group.isError, group.error]);

  if (groupId === undefined || (group.isError && isNotFound(group.error))) {
    return (
      <div className="space-y-4">
        <BackLink to={paths.adminGroups}>Alla grupper</BackLink>
        <h1 className="text-2xl font-bold text-ink">Grupp hittades inte</h1>
      </div>
    );
  }

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { user } = await addUser.mutateAsync({
        email: values.email,
        role: values.role,
        full_name: values.full_name || undefined,
        phone: values.phone || undefined,
      });
      notify.success(user.is_new_user ? 'Användare skapad och tillagd' : 'Användare tillagd', user.email);
      navigate(paths.adminGroup(groupId));
    } catch (error) {
      if (isSessionFailure(error)) return;
      showRefusalAtFields(form, error, ['email', 'role', 'full_name', 'phone']);
      notify.error('Fel vid tillägg av användare', errorMessage(error));
    }
  });

  return (
    <div className="mx-auto max-w-xl space-y-4">
      <BackLink to={paths.adminGroup(groupId)}>Tillbaka till gruppen</BackLink>
      <Card className="p-5 sm:p-6">
        <h1 className="text-2xl font-bold text-ink">Lägg till användare</h1>
        <p className="mt-1 text-muted">
          {group.data ? (
            <>
              I gruppen <span className="font-semibold text-ink">{group.data.name}</span> ({group.data.group_code})
            </>
          ) : group.isError ? null : (
            <span role="status">Hämtar gruppen...</span>
          )}
        </p>
        {group.isError && (
          <Alert tone="error" title="Kunde inte hämta gruppen" className="mt-4">
            {errorMessage(group.error)}
          </Alert>
        )}
        <p className="mt-4 text-sm text-muted">
          Finns e-postadressen redan läggs personen till i gruppen. Annars skapas ett nytt konto och personen får ett mejl om hur hen väljer
          lösenord.
        </p>
        <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4">
          <Field label="E-post" error={form.formState.errors.email?.message}>
            <Input type="email" autoComplete="off" inputMode="email" maxLength={TEXT_LIMITS.email} {...form.register('email')} />
          </Field>
          <Field label="Roll">
            <Select {...form.register('role')}>
              <option value="seller">Säljare</option>
              <option value="admin">Admin (gruppadministratör)</option>
            </Select>
          </Field>
          <Field
            label="Fullständigt namn"
            hint="Krävs för administratörer och för nya användare."
            warning={unprintableWarning(form.watch('full_name'))}
            error={form.formState.errors.full_name?.message}
          >
            <Input autoComplete="off" maxLength={TEXT_LIMITS.name} {...form.register('full_name')} />
          </Field>
          <Field label="Telefon (valfritt)">
            <Input type="tel" autoComplete="off" inputMode="tel" maxLength={TEXT_LIMITS.phone} {...form.register('phone')} />
          </Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button asChild variant="outline">
              <Link to={paths.adminGroup(groupId)}>Avbryt</Link>
            </Button>
            <Button type="submit" variant="brand" disabled={form.formState.isSubmitting}>
              {form.formState.isSubmitting ? 'Lägger till...' : 'Lägg till användare'}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
