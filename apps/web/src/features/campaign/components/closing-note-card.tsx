import { HeartHandshake } from 'lucide-react';
import type { TClosingNote } from '@saljportalen/contract';
import { Card } from '@/components/ui/card';
import { formatDate } from '@/lib/format';

/** What the money became, as the teacher wrote it (issue 31 point 5), on the pupils' dashboards and the guardian view. */
export function ClosingNoteCard({ note, groupName }: { note: TClosingNote; groupName: string }) {
  return (
    <Card className="flex gap-4 border-emerald-300 bg-emerald-50 p-6" role="region" aria-labelledby="closing-note-title">
      <HeartHandshake className="size-8 shrink-0 text-emerald-800" aria-hidden="true" />
      <div className="min-w-0">
        <h2 id="closing-note-title" className="text-lg font-semibold text-ink">
          Vad pengarna blev
        </h2>
        <p className="text-sm text-muted">
          Från läraren i {groupName}, <time dateTime={note.written_at}>{formatDate(note.written_at)}</time>
        </p>
        <div className="mt-2 space-y-2 text-ink [overflow-wrap:anywhere]">
          {note.text.split(/\n{2,}/).map((paragraph, index) => (
            <p key={index} className="whitespace-pre-line">
              {paragraph}
            </p>
          ))}
        </div>
      </div>
    </Card>
  );
}
