import { useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useNavigate, useSearchParams } from 'react-router';
import {
  ZEmailSchema,
  ZFullNameSchema,
  ZGivenPasswordSchema,
  ZNewPasswordSchema,
  ZPublicNameChoiceSchema,
  PUBLIC_NAME_LABELS,
  type TGuardianConsentResponse,
  TEXT_LIMITS,
} from '@saljportalen/contract';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { unprintableWarning } from '@/lib/printable';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, notify } from '@/lib/toast';
import { ApiError } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { useAnswerConsent, useGuardianConsent } from './api/consent';
import { genitive } from '@/lib/format';

/**
 * For a pupil a teacher added from a class list (issue 31) the guardian also chooses the pupil's
 * password and how buyers see the name; `class_list` says whether these are asked.
 */
const childFields = {
  class_list: z.boolean(),
  child_password: z.string().optional(),
  child_public_name: ZPublicNameChoiceSchema.optional(),
  child_alias: z.string().optional(),
};
type ChildValues = {
  class_list: boolean;
  child_password?: string;
  child_public_name?: z.infer<typeof ZPublicNameChoiceSchema>;
  child_alias?: string;
};
function childRule(value: ChildValues, context: z.RefinementCtx) {
  if (!value.class_list) return;
  const password = ZNewPasswordSchema.safeParse(value.child_password ?? '');
  if (!password.success) {
    context.addIssue({ code: 'custom', path: ['child_password'], message: password.error.issues[0]?.message ?? 'Lösenord krävs' });
  }
  if (value.child_public_name === 'alias' && !value.child_alias?.trim()) {
    context.addIssue({ code: 'custom', path: ['child_alias'], message: 'Skriv ett alias, eller välj förnamn eller hela namnet' });
  }
}
/** The child's choices as sent: only for a class-list pupil. */
const childChoices = ({ class_list, child_password, child_public_name, child_alias }: ChildValues) =>
  class_list ? { child_password, child_public_name, ...(child_public_name === 'alias' ? { child_alias: child_alias?.trim() } : {}) } : {};

const newAccountSchema = z
  .object({ full_name: ZFullNameSchema, email: ZEmailSchema, password: ZNewPasswordSchema, ...childFields })
  .superRefine(childRule);
const existingAccountSchema = z
  .object({
    email: ZEmailSchema,
    password: ZGivenPasswordSchema(),
    ...childFields,
  })
  .superRefine(childRule);
type NewAccount = z.infer<typeof newAccountSchema>;
type ExistingAccount = z.infer<typeof existingAccountSchema>;
const childDefaults = (username: string | null): ChildValues => ({
  class_list: username !== null,
  child_password: '',
  child_public_name: 'first_name',
  child_alias: '',
});

/** The class-list pupil's username, password and public name, in the guardian's approval form. */
function ChildChoices({ form, username }: { form: UseFormReturn<ChildValues>; username: string | null }) {
  const choice = form.watch('child_public_name');
  if (username === null) return null;
  const errors = form.formState.errors;
  return (
    <fieldset className="space-y-4 rounded-lg border border-line p-4">
      <legend className="px-1 text-base font-semibold text-ink">Barnets inloggning</legend>
      <Field label="Barnets användarnamn" hint="Barnet loggar in med användarnamnet och lösenordet du väljer.">
        <Input readOnly value={username} />
      </Field>
      <Field label="Välj barnets lösenord" hint="Minst 8 tecken." error={errors.child_password?.message}>
        <PasswordInput autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.register('child_password')} />
      </Field>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-ink">Så ser köpare barnets namn</legend>
        {(['first_name', 'full_name', 'alias'] as const).map((value) => (
          <label key={value} className="flex min-h-11 items-center gap-2 text-base text-ink">
            <input type="radio" value={value} className="size-5 accent-brand" {...form.register('child_public_name')} />
            {PUBLIC_NAME_LABELS[value]}
          </label>
        ))}
      </fieldset>
      {choice === 'alias' && (
        <Field label="Alias" warning={unprintableWarning(form.watch('child_alias'))} error={errors.child_alias?.message}>
          <Input maxLength={TEXT_LIMITS.alias} {...form.register('child_alias')} />
        </Field>
      )}
    </fieldset>
  );
}

function Frame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 sm:py-10">
      <Card className="p-6 sm:p-8">
        <h1 className="text-2xl font-bold text-ink">{title}</h1>
        <div className="mt-4 space-y-6">{children}</div>
      </Card>
    </div>
  );
}

/** What the portal keeps about the child, and why, in words for a parent (issue 22). */
function WhatWeStore({ consent }: { consent: TGuardianConsentResponse }) {
  const groups = consent.child.groups.join(', ') || 'gruppen';
  const rows: [string, string][] = [
    [
      'Namn',
      `${consent.child.full_name}. Så att läraren och klassen ser vem som säljer. Köpare ser bara förnamnet om ni inte väljer annat.`,
    ],
    consent.child.email === null
      ? ['Användarnamn', `${consent.child.username ?? ''}. För inloggning. Barnet har ingen e-postadress hos oss; du väljer lösenordet.`]
      : ['E-postadress', `${consent.child.email}. För inloggning och för att kunna återställa lösenordet.`],
    ['Klass eller grupp', `${groups}. Vilken grupp barnet säljer för och vem som är lärare eller ledare.`],
    [
      'Försäljning',
      'Ordrar som kommer in via barnets personliga länk, med belopp och provision. För barnets egen översikt, topplistan och klassens utbetalning.',
    ],
    ['Klick på länken', 'Hur många gånger per dag den personliga länken har öppnats. Inga uppgifter om vem som klickade.'],
  ];
  return (
    <section aria-labelledby="stored-title" className="space-y-3">
      <h2 id="stored-title" className="text-lg font-semibold text-ink">
        Det här sparar vi om barnet, och varför
      </h2>
      <dl className="divide-y divide-line rounded-lg border border-line">
        {rows.map(([term, description]) => (
          <div key={term} className="grid gap-1 p-3 sm:grid-cols-3 sm:gap-4">
            <dt className="font-medium text-ink">{term}</dt>
            <dd className="text-ink sm:col-span-2 [overflow-wrap:anywhere]">{description}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-muted">
        Du kan när som helst återkalla samtycket. Då tas barnets konto bort.{' '}
        <a href="/integritet" className="font-medium text-brand underline underline-offset-4">
          Läs mer om hur vi hanterar personuppgifter
        </a>
        .
      </p>
    </section>
  );
}

/**
 * The approving account's address is the one the child gave (issue 28): shown, not typed, so a
 * parent is not led to try another address the server refuses anyway.
 */
function InvitedEmailField({ email, fromClassList }: { email: string; fromClassList: boolean }) {
  const given = fromClassList ? 'Adressen som läraren eller ledaren angav.' : 'Adressen som barnet angav.';
  return (
    <Field label="Din e-post" hint={`${given} Godkännandet görs med ett konto för den.`}>
      <Input type="email" readOnly value={email} />
    </Field>
  );
}

/**
 * Why the server refused the approval (an account in the child's group, under 13, another
 * address), kept on the page beside the form: the parent needs to read it, not catch a toast.
 */
function Refusal({ message }: { message: string | null }) {
  return message ? (
    <Alert tone="error" title="Godkännandet gick inte igenom">
      {message}
    </Alert>
  ) : null;
}

interface AccountFormProps {
  code: string;
  email: string;
  username: string | null;
  onApproved: () => void;
}

function NewAccountForm({ code, email, username, onApproved }: AccountFormProps) {
  const answer = useAnswerConsent();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<NewAccount>({
    resolver: zodResolver(newAccountSchema),
    defaultValues: { full_name: '', email, password: '', ...childDefaults(username) },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setRefusal(null);
    try {
      await answer.mutateAsync({
        code,
        decision: 'approve',
        account: 'new',
        full_name: values.full_name,
        password: values.password,
        email,
        ...childChoices(values),
      });
      onApproved();
    } catch (error) {
      if (!showRefusalAtFields(form, error, ['full_name', 'password', 'child_password', 'child_alias'])) setRefusal(errorMessage(error));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field label="Ditt namn" error={form.formState.errors.full_name?.message}>
        <Input autoComplete="name" maxLength={TEXT_LIMITS.name} {...form.register('full_name')} />
      </Field>
      <InvitedEmailField email={email} fromClassList={username !== null} />
      <Field label="Välj lösenord" hint="Minst 8 tecken." error={form.formState.errors.password?.message}>
        <PasswordInput autoComplete="new-password" maxLength={TEXT_LIMITS.password} {...form.register('password')} />
      </Field>
      <ChildChoices form={form as unknown as UseFormReturn<ChildValues>} username={username} />
      <Refusal message={refusal} />
      <Button type="submit" variant="brand" size="lg" className="w-full" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Godkänner...' : 'Godkänn och skapa konto'}
      </Button>
    </form>
  );
}

function ExistingAccountForm({ code, email, username, onApproved }: AccountFormProps) {
  const answer = useAnswerConsent();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<ExistingAccount>({
    resolver: zodResolver(existingAccountSchema),
    defaultValues: { email, password: '', ...childDefaults(username) },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setRefusal(null);
    try {
      await answer.mutateAsync({
        code,
        decision: 'approve',
        account: 'existing',
        password: values.password,
        email,
        ...childChoices(values),
      });
      onApproved();
    } catch (error) {
      if (!showRefusalAtFields(form, error, ['password', 'child_password', 'child_alias'])) setRefusal(errorMessage(error));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <InvitedEmailField email={email} fromClassList={username !== null} />
      <Field label="Ditt lösenord" error={form.formState.errors.password?.message}>
        <PasswordInput autoComplete="current-password" maxLength={TEXT_LIMITS.password} {...form.register('password')} />
      </Field>
      <ChildChoices form={form as unknown as UseFormReturn<ChildValues>} username={username} />
      <Refusal message={refusal} />
      <Button type="submit" variant="brand" size="lg" className="w-full" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? 'Godkänner...' : 'Godkänn och logga in'}
      </Button>
    </form>
  );
}

function DeclineButton({ code, childName, onDeclined }: { code: string; childName: string; onDeclined: () => void }) {
  const [open, setOpen] = useState(false);
  const answer = useAnswerConsent();
  const onConfirm = async () => {
    try {
      await answer.mutateAsync({ code, decision: 'decline' });
      setOpen(false);
      onDeclined();
    } catch (error) {
      notify.error('Det gick inte att avböja', errorMessage(error));
    }
  };
  return (
    <>
      <Button variant="outline" className="w-full" onClick={() => setOpen(true)}>
        Avböj
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Avböja och ta bort kontot?"
        description={`${genitive(childName)} konto tas bort. Det går inte att ångra.`}
      >
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setOpen(false)}>
            Avbryt
          </Button>
          <Button variant="destructive" onClick={() => void onConfirm()} disabled={answer.isPending}>
            {answer.isPending ? 'Tar bort...' : 'Avböj och ta bort kontot'}
          </Button>
        </div>
      </Dialog>
    </>
  );
}

/** `/vardnadshavare/godkann?code=…`: the guardian's consent for a seller under 13 (issue 22). */
export function GuardianConsentPage() {
  const [params] = useSearchParams();
  const code = params.get('code');
  const navigate = useNavigate();
  const consent = useGuardianConsent(code);
  const [account, setAccount] = useState<'new' | 'existing'>('new');
  const [declined, setDeclined] = useState(false);

  if (declined) {
    return (
      <Frame title="Du har avböjt">
        <p className="text-ink">Barnets konto är borttaget. Tack för att du tog ställning.</p>
      </Frame>
    );
  }
  if (!code) {
    return (
      <Frame title="Godkänn ditt barns konto">
        <Alert tone="error" title="Länken är ofullständig">
          Öppna länken i mejlet igen, hela länken behövs.
        </Alert>
      </Frame>
    );
  }
  if (consent.isPending) {
    return (
      <Frame title="Godkänn ditt barns konto">
        <p role="status" className="sr-only">
          Laddar...
        </p>
        <Skeleton className="h-40 w-full" />
      </Frame>
    );
  }
  if (consent.error instanceof ApiError && consent.error.code === 'ACCOUNT_REMOVED') {
    // Declined, withdrawn or deleted since the mail was sent: nothing is left to answer (issue 33).
    return (
      <Frame title="Barnets konto är borttaget">
        <p className="text-ink">{consent.error.message}</p>
      </Frame>
    );
  }
  if (consent.isError) {
    return (
      <Frame title="Godkänn ditt barns konto">
        <Alert tone="error" title="Länken går inte att använda">
          {errorMessage(consent.error)}
        </Alert>
      </Frame>
    );
  }

  const data = consent.data;
  const firstName = data.child.full_name.split(/\s+/)[0] ?? data.child.full_name;
  const onApproved = () => {
    notify.success('Tack för ditt godkännande', `${genitive(firstName)} personliga länk är nu aktiv.`);
    navigate(paths.guardian, { replace: true });
  };
  return (
    <Frame title="Godkänn ditt barns konto">
      {data.child.username === null ? (
        <p className="text-ink">
          <strong>{data.child.full_name}</strong> vill sälja tillsammans med {data.child.groups.join(', ') || 'sin grupp'} på Säljportalen
          och har angett dig som vårdnadshavare. Barn under 13 år behöver en vårdnadshavares godkännande. Tills du har godkänt är barnets
          säljlänk inte aktiv och barnet syns inte i någon topplista.
        </p>
      ) : (
        <p className="text-ink">
          Läraren eller ledaren för {data.child.groups.join(', ') || 'gruppen'} har lagt till <strong>{data.child.full_name}</strong> på
          Säljportalen och angett dig som vårdnadshavare. Barnet har ett användarnamn i stället för en e-postadress. När du godkänner väljer
          du barnets lösenord och hur namnet visas för köpare. Tills dess är barnets säljlänk inte aktiv och barnet syns inte i någon
          topplista.
        </p>
      )}
      <WhatWeStore consent={data} />
      <section aria-labelledby="approve-title" className="space-y-4">
        <h2 id="approve-title" className="text-lg font-semibold text-ink">
          Godkänn
        </h2>
        <p className="text-sm text-muted">
          Med ett eget konto kan du följa {genitive(firstName)} försäljning och återkalla samtycket. Kontot är bara ditt, du blir inte
          säljare.
        </p>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-ink">Ditt konto</legend>
          <div className="flex flex-col gap-1 sm:flex-row sm:gap-6">
            {(
              [
                ['new', 'Skapa ett konto'],
                ['existing', 'Jag har redan ett konto'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex min-h-11 items-center gap-2 text-base text-ink">
                <input
                  type="radio"
                  name="guardian-account"
                  value={value}
                  checked={account === value}
                  onChange={() => setAccount(value)}
                  className="size-5 accent-brand"
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        {account === 'new' ? (
          <NewAccountForm code={code} email={data.guardian_email} username={data.child.username} onApproved={onApproved} />
        ) : (
          <ExistingAccountForm code={code} email={data.guardian_email} username={data.child.username} onApproved={onApproved} />
        )}
      </section>
      <section aria-labelledby="decline-title" className="space-y-3 border-t border-line pt-6">
        <h2 id="decline-title" className="text-lg font-semibold text-ink">
          Vill du inte godkänna?
        </h2>
        <p className="text-sm text-muted">Avböjer du tas {genitive(firstName)} konto bort direkt.</p>
        <DeclineButton code={code} childName={firstName} onDeclined={() => setDeclined(true)} />
      </section>
    </Frame>
  );
}
