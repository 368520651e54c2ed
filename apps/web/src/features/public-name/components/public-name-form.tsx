import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  PUBLIC_NAME_LABELS,
  ZPublicNameRequestSchema,
  type TPublicNameChoice,
  type TPublicNameRequest,
  type TPublicNameResponse,
} from '@saljportalen/contract';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { unprintableWarning } from '@/lib/printable';
import { Input } from '@/components/ui/input';
import { notify, notifyFailure } from '@/lib/toast';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { genitive } from '@/lib/format';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';

const OWN_HINTS: Record<TPublicNameChoice, string> = {
  first_name: 'Bara ditt förnamn. Det säkraste valet.',
  full_name: 'För- och efternamn.',
  alias: 'Ett namn du hittar på, till exempel ett smeknamn.',
};
const CHILD_HINTS: Record<TPublicNameChoice, string> = {
  first_name: 'Bara barnets förnamn. Det säkraste valet.',
  full_name: 'För- och efternamn.',
  alias: 'Ett namn ni hittar på, till exempel ett smeknamn.',
};
const CHOICES: TPublicNameChoice[] = ['first_name', 'full_name', 'alias'];

interface PublicNameFormValues {
  public_name: TPublicNameChoice;
  alias: string;
}

/**
 * Issue 22: the name on the catalogue and in the share texts. A pupil of 13 or over chooses; under
 * 13 the guardian does (`childName` set: the guardian's view of that child), and the pupil only sees
 * the choice.
 */
export function PublicNameForm({
  current,
  save,
  childName,
}: {
  current: TPublicNameResponse;
  save: (request: TPublicNameRequest) => Promise<TPublicNameResponse>;
  childName?: string;
}) {
  const titleId = useId();
  const hints = childName ? CHILD_HINTS : OWN_HINTS;
  const form = useForm<PublicNameFormValues>({
    resolver: zodResolver(ZPublicNameRequestSchema) as never,
    defaultValues: { public_name: current.public_name, alias: current.alias ?? '' },
  });
  const chosen = form.watch('public_name');
  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        const answer = await save({ public_name: values.public_name, alias: values.alias || null });
        form.reset({ public_name: answer.public_name, alias: answer.alias ?? '' });
        notify.success('Inställning uppdaterad', `Köpare ser nu: ${answer.public_seller_name}`);
      } catch (error) {
        showRefusalAtFields(form, error, ['public_name', 'alias']);
        notifyFailure('Kunde inte uppdatera inställningen', error);
      }
    },
    (errors) => {
      const text = errors.alias?.message ?? errors.public_name?.message;
      if (text) notify.error('Kontrollera namnet', text);
    },
  );
  const { errors, isSubmitting } = form.formState;
  const locked = current.chosen_by_guardian && !childName;

  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>Namn som köpare ser</CardTitle>
        <p className="text-sm text-muted">
          {childName
            ? `Namnet står på ${genitive(childName)} katalog och i meddelandet som delas.`
            : 'Namnet står på din katalog och i meddelandet du delar.'}{' '}
          Köpare ser just nu: <strong className="text-ink">{current.public_seller_name}</strong>
        </p>
      </CardHeader>
      <CardContent>
        {locked ? (
          <Alert tone="info" title="Din vårdnadshavare väljer">
            Eftersom du är under 13 år väljer din vårdnadshavare hur ditt namn visas för köpare.
          </Alert>
        ) : (
          <form aria-labelledby={titleId} onSubmit={onSubmit} noValidate className="space-y-4">
            <fieldset className="space-y-2">
              <legend className="mb-1 text-sm font-medium text-ink">{childName ? 'Visa barnets namn som' : 'Visa mitt namn som'}</legend>
              {CHOICES.map((choice) => (
                <label
                  key={choice}
                  className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-[:checked]:border-brand has-[:checked]:bg-brand-soft/40"
                >
                  <input type="radio" value={choice} className="mt-1 size-4 accent-brand" {...form.register('public_name')} />
                  <span>
                    <span className="block font-medium text-ink">{PUBLIC_NAME_LABELS[choice]}</span>
                    <span className="block text-sm text-muted">{hints[choice]}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            {chosen === 'alias' && (
              <Field
                label="Alias"
                hint={childName ? 'Högst 40 tecken. Skriv inte barnets riktiga namn.' : 'Högst 40 tecken. Skriv inte ditt riktiga namn.'}
                warning={unprintableWarning(form.watch('alias'))}
                error={errors.alias?.message}
              >
                <Input autoComplete="off" maxLength={TEXT_LIMITS.alias} {...form.register('alias')} />
              </Field>
            )}
            <Button type="submit" variant="brand" disabled={isSubmitting}>
              {isSubmitting ? 'Sparar...' : 'Spara namnval'}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
