import { useEffect, useRef, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link } from 'react-router';
import type { TCreateGroupResponse } from '@saljportalen/contract';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { unprintableWarning } from '@/lib/printable';
import { Input } from '@/components/ui/input';
import { paths } from '@/lib/paths';
import { notify } from '@/lib/toast';
import { PasswordInput } from '@/components/ui/password-input';
import { notifyFailure } from '../admin-page-helpers';
import { BackLink } from '../components/back-link';
import { useCreateGroup } from './api/create-group';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';

/**
 * spec §5 create group: the name is required after trimming; with 'add administrator now' ticked,
 * e-mail, password and full name are required. The password hint says six characters, which the
 * form does not enforce (the server answers if it is too short); phone is optional.
 */
const createGroupSchema = z
  .object({
    group_name: z.string().trim().min(1, 'Gruppnamn krävs'),
    add_admin: z.boolean(),
    admin_email: z.string().trim(),
    admin_password: z.string(),
    admin_full_name: z.string().trim(),
    admin_phone: z.string().trim(),
  })
  .superRefine((values, context) => {
    if (!values.add_admin) return;
    if (!values.admin_email) context.addIssue({ code: 'custom', path: ['admin_email'], message: 'E-post krävs' });
    if (!values.admin_password) context.addIssue({ code: 'custom', path: ['admin_password'], message: 'Lösenord krävs' });
    if (!values.admin_full_name) context.addIssue({ code: 'custom', path: ['admin_full_name'], message: 'Namn krävs' });
  });
type CreateGroupForm = z.infer<typeof createGroupSchema>;

const emptyForm: CreateGroupForm = {
  group_name: '',
  add_admin: false,
  admin_email: '',
  admin_password: '',
  admin_full_name: '',
  admin_phone: '',
};

/** The new group and its code, to hand on to the sellers. */
function GroupCreated({ created, onAnother }: { created: TCreateGroupResponse; onAnother: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Card className="mx-auto max-w-xl p-5 text-center sm:p-8">
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold text-ink">
        Grupp skapad
      </h1>
      <p className="mt-2 text-muted">
        <span className="font-semibold text-ink">{created.group.name}</span> är skapad. Dela gruppkoden med säljarna så att de kan
        registrera sig.
      </p>
      <p className="mt-6 text-sm font-medium text-muted">Gruppkod</p>
      <p className="mt-1 font-mono text-4xl font-bold tracking-[0.3em] text-brand" data-testid="group-code">
        {created.group.group_code}
      </p>
      {created.admin && (
        <p className="mt-6 text-sm text-muted">
          Administratör: <span className="font-semibold text-ink">{created.admin.email}</span>
          {created.admin.is_new_user ? ' (nytt konto)' : ' (befintligt konto)'}
        </p>
      )}
      <div className="mt-8 flex flex-col gap-2 sm:flex-row sm:justify-center">
        <Button asChild variant="brand">
          <Link to={paths.adminGroup(created.group.id)}>Öppna gruppen</Link>
        </Button>
        <Button variant="outline" onClick={onAnother}>
          Skapa en grupp till
        </Button>
      </div>
    </Card>
  );
}

/** spec §2 /admin/groups/create. */
export function CreateGroupPage() {
  const createGroup = useCreateGroup();
  const [created, setCreated] = useState<TCreateGroupResponse | null>(null);
  const form = useForm<CreateGroupForm>({ resolver: zodResolver(createGroupSchema), defaultValues: emptyForm });
  const addAdmin = form.watch('add_admin');
  const errors = form.formState.errors;

  const onInvalid = (invalid: FieldErrors<CreateGroupForm>) => {
    if (invalid.group_name) notify.error('Gruppnamn krävs', 'Ange ett namn för gruppen');
    else notify.error('Admin-uppgifter krävs', 'Fyll i e-post, lösenord och namn för administratören');
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await createGroup.mutateAsync({
        group_name: values.group_name,
        admin: values.add_admin
          ? {
              email: values.admin_email,
              password: values.admin_password,
              full_name: values.admin_full_name,
              phone: values.admin_phone || undefined,
            }
          : undefined,
      });
      notify.success('Grupp skapad', `Gruppkod: ${answer.group.group_code}`);
      setCreated(answer);
    } catch (error) {
      showRefusalAtFields(form, error, ['group_name', 'admin_email', 'admin_password', 'admin_full_name', 'admin_phone'], {
        'admin.email': 'admin_email',
        'admin.password': 'admin_password',
        'admin.full_name': 'admin_full_name',
        'admin.phone': 'admin_phone',
      });
      notifyFailure('Fel vid skapande av grupp', error);
    }
  }, onInvalid);

  if (created) {
    return (
      <GroupCreated
        created={created}
        onAnother={() => {
          form.reset(emptyForm);
          setCreated(null);
        }}
      />
    );
  }

  return (
    <div className="mx-auto max-w-xl space-y-4">
      <BackLink to={paths.adminGroups}>Alla grupper</BackLink>
      <Card className="p-5 sm:p-6">
        <h1 className="text-2xl font-bold text-ink">Skapa grupp</h1>
        <p className="mt-1 text-muted">Gruppkoden skapas automatiskt.</p>
        <form onSubmit={onSubmit} noValidate className="mt-6 space-y-5">
          <Field
            label="Gruppnamn"
            hint="Till exempel Klass 6B Björkskolan."
            warning={unprintableWarning(form.watch('group_name'))}
            error={errors.group_name?.message}
          >
            <Input autoComplete="off" maxLength={TEXT_LIMITS.groupName} {...form.register('group_name')} />
          </Field>

          <label className="flex cursor-pointer items-center gap-3 rounded-md border border-line p-3">
            <input type="checkbox" className="size-5 accent-brand" {...form.register('add_admin')} />
            <span className="font-medium text-ink">Lägg till administratör nu</span>
          </label>

          {addAdmin && (
            <fieldset className="space-y-4 rounded-md border border-line p-4">
              <legend className="px-1 font-semibold text-ink">Gruppens administratör</legend>
              <Field label="E-post" error={errors.admin_email?.message}>
                <Input type="email" autoComplete="off" inputMode="email" maxLength={TEXT_LIMITS.email} {...form.register('admin_email')} />
              </Field>
              <Field label="Lösenord" hint="Minst 6 tecken." error={errors.admin_password?.message}>
                <PasswordInput autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.register('admin_password')} />
              </Field>
              <Field
                label="Fullständigt namn"
                warning={unprintableWarning(form.watch('admin_full_name'))}
                error={errors.admin_full_name?.message}
              >
                <Input autoComplete="off" maxLength={TEXT_LIMITS.name} {...form.register('admin_full_name')} />
              </Field>
              <Field label="Telefon (valfritt)">
                <Input type="tel" autoComplete="off" inputMode="tel" maxLength={TEXT_LIMITS.phone} {...form.register('admin_phone')} />
              </Field>
              <p className="text-sm text-muted">Har adressen redan ett konto behåller personen sitt eget lösenord och namn.</p>
            </fieldset>
          )}

          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button asChild variant="outline">
              <Link to={paths.adminGroups}>Avbryt</Link>
            </Button>
            <Button type="submit" variant="brand" disabled={form.formState.isSubmitting}>
              {form.formState.isSubmitting ? 'Skapar...' : 'Skapa grupp'}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
