import { RotateCw } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/toast';

/** A list or figures that could not be fetched: spec §8's title, the reason, and 'Försök igen'. */
export function LoadError({
  title,
  query,
  retryWhileFetching = true,
  showReason = true,
}: {
  title: string;
  query: { error: unknown; isFetching: boolean; refetch: () => unknown };
  /** False keeps the button disabled while a fetch is under way. */
  retryWhileFetching?: boolean;
  /** False shows the title alone (the dashboard's 'Något gick fel vid laddning av data.', spec §8). */
  showReason?: boolean;
}) {
  return (
    <Alert tone="error" title={title}>
      {showReason && <p>{errorMessage(query.error)}</p>}
      <Button
        variant="outline"
        size="sm"
        className="mt-3"
        onClick={() => void query.refetch()}
        disabled={!retryWhileFetching && query.isFetching}
      >
        <RotateCw aria-hidden="true" />
        Försök igen
      </Button>
    </Alert>
  );
}
