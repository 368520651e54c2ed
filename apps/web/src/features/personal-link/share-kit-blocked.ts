import type { TCampaign } from '@saljportalen/contract';
import { formatCampaignDay } from '@saljportalen/contract/plain';

// Apart from the kit's texts: the card decides this on every dashboard, the texts load with the kit (decision 075).

/**
 * Whether the link sells today. Before the campaign has started the link does not open the shop,
 * and after it has ended it sells no more (issue 31): the kit says so instead of offering to share.
 */
export function shareKitBlocked(campaign: TCampaign | null, today: string): { title: string; text: string } | null {
  if (!campaign || campaign.state === 'running') return null;
  if (campaign.state === 'upcoming')
    return {
      title: 'Försäljningen har inte startat än',
      text: `Försäljningen startar ${formatCampaignDay(campaign.starts_on, today)}. Länken öppnar butiken först då, så vänta med att dela den: texterna och bilden finns här när den har startat.`,
    };
  return {
    title: 'Försäljningen är avslutad',
    text: `Sista dagen var ${formatCampaignDay(campaign.ends_on, today)}. Länken säljer inte längre, så det finns inget att dela. Tack för att du var med!`,
  };
}
