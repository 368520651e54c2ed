import { Download, FileText } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { genitive } from '@/lib/format';
import { notify, notifyFailure } from '@/lib/toast';
import { useDownloadCatalog } from '../api/download-catalog';

/** The printable personal catalogue: products, prices, the seller's link and its QR code. */
/**
 * `sellerName` is the name buyers see, which the file is saved as (the server prints the same on the
 * catalogue); `path` and `owner` (the child's first name) serve a guardian downloading their child's.
 */
export function CatalogCard({ sellerName, path, owner }: { sellerName: string; path?: string; owner?: string }) {
  const download = useDownloadCatalog(path);
  const onDownload = async () => {
    try {
      await download.mutateAsync(sellerName);
      notify.success('Katalog nedladdad');
    } catch (error) {
      // A session that ended meanwhile has sent the seller to the login page with its own toast.
      notifyFailure('Fel vid nedladdning', error, 'Kunde inte ladda ner katalogen');
    }
  };
  return (
    <Card className="flex h-full flex-col">
      <CardHeader>
        <CardTitle>{owner ? `${genitive(owner)} katalog` : 'Din katalog'}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <div className="flex gap-3">
          <FileText className="mt-0.5 size-8 shrink-0 text-brand" aria-hidden="true" />
          <p className="text-sm text-muted">
            En utskrivbar katalog (PDF) med alla produkter och priser, {owner ? `${genitive(owner)}` : 'din'} personliga länk och en QR-kod
            som leder till den.
          </p>
        </div>
        {/* How the paper catalogue sells, for a pupil who has never sold from one (and fills the card beside the link). */}
        <ol aria-label="Så används katalogen" className="space-y-2 text-sm text-ink">
          {[
            'Skriv ut katalogen och visa den för familj, grannar och släkt.',
            'Köparen skannar QR-koden med mobilen och handlar i butiken.',
            `Allt som köps räknas till ${owner ?? 'dig'} och klassen.`,
          ].map((step, index) => (
            <li key={step} className="flex gap-3">
              <span
                aria-hidden="true"
                className="flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-soft text-xs font-bold text-brand"
              >
                {index + 1}
              </span>
              <span>{step}</span>
            </li>
          ))}
        </ol>
        <Button variant="brand" className="mt-auto w-full" onClick={onDownload} disabled={download.isPending}>
          <Download aria-hidden="true" />
          {download.isPending ? 'Laddar ner...' : 'Ladda ner katalog'}
        </Button>
      </CardContent>
    </Card>
  );
}
