import { CalendarClock } from 'lucide-react';
import type { TCampaign } from '@saljportalen/contract';
import { campaignText, formatCampaignDay, stockholmToday } from '@saljportalen/contract/plain';

/**
 * The class's campaign at the top of every member's dashboard and a guardian's view (issue 31):
 * '12 dagar kvar' with its last day, when it starts, or that it has ended.
 */
export function CampaignStatus({ campaign }: { campaign: TCampaign }) {
  const today = stockholmToday();
  const detail =
    campaign.state === 'running'
      ? `Sista dagen är ${formatCampaignDay(campaign.ends_on, today)}.`
      : campaign.state === 'upcoming'
        ? `Försäljningen pågår till och med ${formatCampaignDay(campaign.ends_on, today)}. Länkarna öppnar butiken när den har startat.`
        : `Den pågick ${formatCampaignDay(campaign.starts_on, today)} – ${formatCampaignDay(campaign.ends_on, today)}. Tack för att du var med!`;
  return (
    <div role="status" className="flex items-start gap-3 rounded-xl border border-line bg-white p-4 shadow-sm">
      <CalendarClock className="mt-0.5 size-6 shrink-0 text-brand" aria-hidden="true" />
      <div>
        <p className="text-lg font-semibold text-ink">{campaignText(campaign, today)}</p>
        <p className="text-sm text-muted">{detail}</p>
      </div>
    </div>
  );
}
