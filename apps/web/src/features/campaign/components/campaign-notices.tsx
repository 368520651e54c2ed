import type { ReactNode } from 'react';
import type { TGroupTotalsResponse } from '@saljportalen/contract';
import { CampaignStatus } from './campaign-status';
import { ClosingNoteCard } from './closing-note-card';

/**
 * What a class's totals say of its campaign, where its members and their guardians look (issue 31):
 * the countdown (not for an archived group, which sells no more), and what the money became once
 * written. `instead` takes the note's place: the teacher's card that writes it.
 */
export function CampaignNotices({
  totals,
  groupName,
  archived,
  instead,
}: {
  totals: Pick<TGroupTotalsResponse, 'campaign' | 'closing_note'> | undefined;
  groupName: string;
  archived: boolean;
  instead?: ReactNode;
}) {
  const campaign = totals?.campaign;
  const note = totals?.closing_note;
  return (
    <>
      {campaign && !archived && <CampaignStatus campaign={campaign} />}
      {instead ?? (note && <ClosingNoteCard note={note} groupName={groupName} />)}
    </>
  );
}
