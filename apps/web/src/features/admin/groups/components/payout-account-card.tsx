import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Landmark } from 'lucide-react';
import {
  PAYOUT_ACCOUNT_KIND_LABELS,
  ZPayoutAccountKindSchema,
  ZSetPayoutAccountRequestSchema,
  type TPayoutAccount,
} from '@saljportalen/contract/payout-account';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { showRefusalAtFields } from '@/lib/server-field-errors';
import { notify } from '@/lib/toast';
import { notifyFailure } from '../../admin-page-helpers';
import { usePayoutAccount, useSetPayoutAccount } from '../api/payout-account';

type FormValues = z.input<typeof ZSetPayoutAccountRequestSchema>;
type Request = z.output<typeof ZSetPayoutAccountRequestSchema>;
const FIELD_ORDER = ['kind', 'clearing_number', 'account_number', 'holder_name'] as const;

const NUMBER_HINT = {
  bankgiro: '7 eller 8 siffror, till exempel 5050-1055.',
  plusgiro: '2 till 8 siffror, till exempel 90 20 90-0.',
  bank: 'Kontonumret utan clearingnumret.',
} as const;

/**
 * Where the group's commission is paid (issue 30 point 6): the receiving account and its holder,
 * checked here by the contract's own rules (Bankgirot's check digits, the banks' clearing ranges)
 * before the server checks them again. A payout is marked paid only once they are set.
 */
export function PayoutAccountCard({ groupId }: { groupId: number }) {
  const account = usePayoutAccount(groupId);
  const [editing, setEditing] = useState(false);
  return (
    <Card role="region" aria-labelledby="payout-account-title">
      <CardHeader>
        <CardTitle id="payout-account-title" className="flex items-center gap-2">
          <Landmark className="size-5 text-brand" aria-hidden="true" />
          Utbetalningsuppgifter
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {account.isPending ? (
          <Skeleton className="h-12 w-72" />
        ) : account.isError ? (
          <p className="text-danger">Kunde inte hämta utbetalningsuppgifterna.</p>
        ) : account.data ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-muted">Mottagarkonto</dt>
            <dd className="font-semibold tabular-nums text-ink">{account.data.display}</dd>
            <dt className="text-muted">Kontohavare</dt>
            <dd className="text-ink">{account.data.holder_name}</dd>
            <dt className="text-muted">Ändrad</dt>
            <dd className="text-ink">{formatDateTime(account.data.updated_at)}</dd>
          </dl>
        ) : (
          <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
            Gruppen har inga utbetalningsuppgifter. En avräkning kan inte markeras som betald förrän mottagarkonto och kontohavare finns.
          </p>
        )}
        {account.isSuccess &&
          (editing ? (
            <PayoutAccountForm
              groupId={groupId}
              current={account.data}
              onDone={() => {
                setEditing(false);
              }}
            />
          ) : (
            <Button variant="outline" onClick={() => setEditing(true)}>
              {account.data ? 'Ändra utbetalningsuppgifter' : 'Lägg in utbetalningsuppgifter'}
            </Button>
          ))}
      </CardContent>
    </Card>
  );
}

function PayoutAccountForm({ groupId, current, onDone }: { groupId: number; current: TPayoutAccount | null; onDone: () => void }) {
  const save = useSetPayoutAccount(groupId);
  const form = useForm<FormValues, unknown, Request>({
    resolver: zodResolver(ZSetPayoutAccountRequestSchema),
    defaultValues: {
      kind: current?.kind ?? 'bankgiro',
      clearing_number: current?.clearing_number ?? '',
      account_number: current?.account_number ?? '',
      holder_name: current?.holder_name ?? '',
    },
  });
  const kind = form.watch('kind');
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      notify.success('Utbetalningsuppgifter sparade');
      onDone();
    } catch (error) {
      if (!showRefusalAtFields(form, error, FIELD_ORDER)) notifyFailure('Kunde inte spara utbetalningsuppgifterna', error);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-md border border-line p-4">
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-ink">Kontotyp</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-1">
          {ZPayoutAccountKindSchema.options.map((option) => (
            <label key={option} className="flex min-h-11 items-center gap-2 text-base text-ink">
              <input type="radio" value={option} className="size-5 shrink-0 accent-brand" {...form.register('kind')} />
              {PAYOUT_ACCOUNT_KIND_LABELS[option]}
            </label>
          ))}
        </div>
      </fieldset>
      {kind === 'bank' && (
        <Field label="Clearingnummer" hint="4 siffror; Swedbank ibland 5, till exempel 8327-9." error={errors.clearing_number?.message}>
          <Input autoComplete="off" inputMode="numeric" maxLength={20} {...form.register('clearing_number')} />
        </Field>
      )}
      <Field
        label={kind === 'bank' ? 'Kontonummer' : `${PAYOUT_ACCOUNT_KIND_LABELS[kind]}nummer`}
        hint={NUMBER_HINT[kind]}
        error={errors.account_number?.message}
      >
        <Input autoComplete="off" inputMode="numeric" maxLength={40} {...form.register('account_number')} />
      </Field>
      <Field label="Kontohavare" hint="Skolan eller föreningen som äger kontot, aldrig en elev." error={errors.holder_name?.message}>
        <Input autoComplete="off" maxLength={TEXT_LIMITS.name} {...form.register('holder_name')} />
      </Field>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDone} disabled={form.formState.isSubmitting}>
          Avbryt
        </Button>
        <Button type="submit" variant="brand" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Sparar...' : 'Spara utbetalningsuppgifter'}
        </Button>
      </div>
    </form>
  );
}
