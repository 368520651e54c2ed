import { useEffect, useRef, useState } from 'react';
import { Check, Copy, Mail, MessageCircle, MessageSquare, Share2, ThumbsUp } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/lib/toast';
import { genitive } from '@/lib/format';
import { SHARE_TITLE, shareMessage, shareTargets, type ShareTarget } from '../share-links';

/** spec §9: the copy confirmation lasts 2 seconds. */
const COPIED_FOR_MS = 2000;

const targetIcons: Record<ShareTarget['id'], typeof Mail> = {
  sms: MessageSquare,
  whatsapp: MessageCircle,
  facebook: ThumbsUp,
  email: Mail,
};

async function copyText(text: string, input: HTMLInputElement | null): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Outside a secure context there is no clipboard API: copy the selected field the old way.
  input?.select();
  if (!document.execCommand('copy')) throw new Error('copy refused');
}

/** `sellerName` is the name buyers see (the summary's `public_seller_name`), which signs the message. */
export function PersonalLinkCard({
  link,
  sellerName,
  owner,
}: {
  link: string;
  sellerName: string;
  /** The child's first name, for a guardian: the card speaks of the child ('Alvas länk'), not to them. */
  owner?: string;
}) {
  const [copied, setCopied] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const onCopy = async () => {
    try {
      await copyText(link, inputRef.current);
      setCopied(true);
      notify.success('Länk kopierad!');
    } catch {
      notify.error('Kunde inte kopiera länk');
    }
  };

  const onShare = async () => {
    try {
      await navigator.share({ title: SHARE_TITLE, text: shareMessage(sellerName), url: link });
    } catch (error) {
      // Closing the share sheet is a choice, not a failure.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      notify.error('Kunde inte dela länken', 'Kopiera länken och klistra in den där du vill dela den.');
    }
  };

  return (
    <Card className="h-full">
      <CardHeader>
        <CardTitle id="personal-link-title">{owner ? `${genitive(owner)} personliga länk` : 'Din personliga länk'}</CardTitle>
        <p className="text-sm text-muted">
          {owner
            ? `Allt som köps via ${genitive(owner)} länk räknas till ${owner} och ${genitive(owner)} grupp.`
            : 'Allt som köps via din länk räknas till dig och din grupp.'}
        </p>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <Field label="Länk" className="min-w-0 flex-1">
            <Input ref={inputRef} readOnly value={link} onFocus={(event) => event.currentTarget.select()} className="font-mono text-sm" />
          </Field>
          <Button variant="brand" onClick={onCopy} className="sm:w-40">
            {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            {copied ? 'Kopierad!' : 'Kopiera länk'}
          </Button>
        </div>

        <figure className="rounded-lg bg-brand-soft/60 p-4">
          <figcaption className="text-sm font-semibold text-brand">Meddelande att dela</figcaption>
          <blockquote className="mt-1 whitespace-pre-line text-sm text-ink">{shareMessage(sellerName)}</blockquote>
        </figure>

        <div>
          <h3 className="mb-2 text-sm font-semibold text-ink">Dela länken</h3>
          <ul className="flex flex-wrap gap-2">
            {canShare && (
              <li>
                <Button variant="accent" size="sm" onClick={onShare}>
                  <Share2 aria-hidden="true" />
                  Dela
                </Button>
              </li>
            )}
            {shareTargets(link, sellerName).map((target) => {
              const Icon = targetIcons[target.id];
              return (
                <li key={target.id}>
                  <Button asChild variant="outline" size="sm">
                    <a href={target.href} {...(target.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
                      <Icon aria-hidden="true" />
                      {target.label}
                      {target.external && <span className="sr-only"> (öppnas i ny flik)</span>}
                    </a>
                  </Button>
                </li>
              );
            })}
          </ul>
        </div>
      </CardContent>
    </Card>
  );
}
