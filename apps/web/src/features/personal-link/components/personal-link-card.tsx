import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { CalendarX, Check, Copy, Mail, MessageCircle, MessageSquare, Package, Share2, ThumbsUp } from 'lucide-react';
import type { TCampaign, TGroupGoal } from '@saljportalen/contract';
import { stockholmToday } from '@saljportalen/contract/plain';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { notify } from '@/lib/toast';
import { genitive } from '@/lib/format';
import { copyText } from '@/lib/clipboard';
import { shareKitBlocked } from '../share-kit-blocked';
import { SHARE_TITLE, shareMessage, shareTargets, type ShareTarget } from '../share-links';

// The kit and the QR code's package load when the pupil first opens it (decision 075).
const ShareKit = lazy(() => import('./share-kit'));

/** spec §9: the copy confirmation lasts 2 seconds. */
const COPIED_FOR_MS = 2000;

const targetIcons: Record<ShareTarget['id'], typeof Mail> = {
  sms: MessageSquare,
  whatsapp: MessageCircle,
  facebook: ThumbsUp,
  email: Mail,
};

/**
 * The share kit under the link (issue 32 point 4): ready texts, a fridge note and a square picture,
 * made when first opened. Before the campaign has started or after it has ended the link does not
 * sell, and the card says so in its place.
 */
function ShareKitPart({
  link,
  sellerName,
  goal,
  campaign,
}: {
  link: string;
  sellerName: string;
  goal: TGroupGoal | null;
  campaign: TCampaign | null;
}) {
  const [opened, setOpened] = useState(false);
  const blocked = shareKitBlocked(campaign, stockholmToday());
  if (blocked) {
    return (
      <div className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
        <CalendarX className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-semibold">{blocked.title}</p>
          <p className="mt-1 text-sm">{blocked.text}</p>
        </div>
      </div>
    );
  }
  return (
    <details
      className="rounded-lg border border-line"
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
    >
      <summary className="flex cursor-pointer items-center gap-2 rounded-lg p-3 font-semibold text-ink">
        <Package className="size-5 text-brand" aria-hidden="true" />
        Färdiga texter, lapp och bild att dela
      </summary>
      {opened && (
        <div className="border-t border-line p-2 sm:p-3">
          <Suspense fallback={<Skeleton className="h-64 w-full" />}>
            <ShareKit link={link} sellerName={sellerName} goal={goal} campaign={campaign} />
          </Suspense>
        </div>
      )}
    </details>
  );
}

/**
 * `sellerName` is the name buyers see (the summary's `public_seller_name`), which signs the message.
 * `goal` and `campaign` are the class's (the group totals'), for the share kit's texts.
 */
export function PersonalLinkCard({
  link,
  sellerName,
  owner,
  goal = null,
  campaign = null,
}: {
  link: string;
  sellerName: string;
  /** The child's first name, for a guardian: the card speaks of the child ('Alvas länk'), not to them. */
  owner?: string;
  goal?: TGroupGoal | null;
  campaign?: TCampaign | null;
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

        <ShareKitPart link={link} sellerName={sellerName} goal={goal} campaign={campaign} />
      </CardContent>
    </Card>
  );
}
