import { useRef, useState, type FormEvent } from 'react';
import { Copy, ExternalLink, FileDown, Store } from 'lucide-react';
import { TEXT_LIMITS } from '@saljportalen/contract/plain';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { copyText } from '@/lib/clipboard';
import { refusedFields } from '@/lib/server-field-errors';
import { notify, notifyFailure } from '@/lib/toast';
import { downloadPoster, useClassLink, useSetBuyerGreeting } from '../api/class-link';

/** The teacher's text on every buyer page of the class; saved empty, it is taken away. */
function BuyerGreetingForm({ groupId, greeting }: { groupId: number; greeting: string | null }) {
  const [text, setText] = useState(greeting ?? '');
  const [error, setError] = useState<string>();
  const field = useRef<HTMLTextAreaElement>(null);
  const save = useSetBuyerGreeting(groupId);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    try {
      const answer = await save.mutateAsync({ group_id: groupId, text });
      setError(undefined);
      setText(answer.buyer_greeting ?? '');
      notify.success(answer.buyer_greeting ? 'Texten till köparna är sparad' : 'Texten till köparna är borttagen');
    } catch (failure) {
      const refused = refusedFields(failure).find((issue) => issue.field === 'text');
      if (refused) {
        setError(refused.message);
        field.current?.focus();
      }
      notifyFailure('Kunde inte spara texten', failure);
    }
  };
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-3">
      <Field
        label="Text till köparna"
        error={error}
        hint={`Visas på sidan före butiken, för klasslänken och varje elevs länk. Skriv om klassen, inte om enskilda elever. Högst ${TEXT_LIMITS.buyerGreeting} tecken.`}
      >
        <Textarea
          ref={field}
          className="min-h-24"
          value={text}
          maxLength={TEXT_LIMITS.buyerGreeting}
          placeholder="Till exempel: Tack för att ni stöttar oss! Pengarna går till vår lägerskola i maj."
          onChange={(event) => setText(event.target.value)}
        />
      </Field>
      <Button type="submit" variant="outline" aria-disabled={save.isPending}>
        Spara texten
      </Button>
    </form>
  );
}

/**
 * The class link (issue 32) for the teacher: a link for buyers who want to support the whole class,
 * whose orders count for the class and no pupil; the class poster with its QR code; and the text
 * every buyer page of the class shows.
 */
export function ClassLinkCard({ groupId }: { groupId: number }) {
  const link = useClassLink(groupId);
  const input = useRef<HTMLInputElement>(null);
  const [downloading, setDownloading] = useState(false);
  if (link.isError) return null;

  const onCopy = async () => {
    try {
      await copyText(link.data!.class_link, input.current);
      notify.success('Länk kopierad!');
    } catch {
      notify.error('Kunde inte kopiera länk');
    }
  };
  const onPoster = async () => {
    if (downloading) return;
    setDownloading(true);
    try {
      await downloadPoster(groupId);
    } catch (failure) {
      notifyFailure('Kunde inte ladda ner affischen', failure);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card role="region" aria-labelledby="class-link-title">
      <CardHeader>
        <CardTitle id="class-link-title" className="flex items-center gap-2">
          <Store className="size-5 text-brand" aria-hidden="true" />
          Klassens länk och affisch
        </CardTitle>
        <p className="text-sm text-muted">
          För köpare som vill stötta hela klassen, till exempel på en affisch i skolan. Köp via klasslänken räknas till klassen, inte till
          någon elev, och betalas ut med klassens provision.
        </p>
      </CardHeader>
      <CardContent className="space-y-5">
        {link.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : (
          <>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
              <Field label="Klasslänk" className="min-w-0 flex-1">
                <Input
                  ref={input}
                  readOnly
                  value={link.data.class_link}
                  onFocus={(event) => event.currentTarget.select()}
                  className="font-mono text-sm"
                />
              </Field>
              <Button variant="brand" onClick={() => void onCopy()} className="sm:w-40">
                <Copy aria-hidden="true" />
                Kopiera länk
              </Button>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={() => void onPoster()} aria-disabled={downloading}>
                <FileDown aria-hidden="true" />
                Ladda ner affisch (PDF)
              </Button>
              <Button asChild variant="outline">
                <a href={link.data.class_link} target="_blank" rel="noopener noreferrer">
                  <ExternalLink aria-hidden="true" />
                  Visa köparsidan
                  <span className="sr-only"> (öppnas i ny flik)</span>
                </a>
              </Button>
            </div>
            <BuyerGreetingForm groupId={groupId} greeting={link.data.buyer_greeting} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
