import type { TCampaign, TGroupGoal } from '@saljportalen/contract';
import { formatCampaignDay } from '@saljportalen/contract/plain';
import { formatKronor, genitive } from '@/lib/format';

/**
 * The share kit's ready texts (issue 32 point 4), for a pupil of 9–15 to send to grandparents,
 * neighbours and family friends: short, warm, in the pupil's own voice. They name the pupil only by
 * `sellerName`, the name the family chose for buyers (issue 22), and never say what the pupil has
 * sold or earned: only the class goal, which is the whole class's (decision 038), and the campaign's
 * last day (decision 075).
 */
export interface ShareKitInput {
  link: string;
  /** The summary's `public_seller_name`; '' for a summary kept offline from before it was sent. */
  sellerName: string;
  goal: Pick<TGroupGoal, 'purpose' | 'amount'> | null;
  campaign: Pick<TCampaign, 'starts_on' | 'ends_on' | 'days_left' | 'state'> | null;
  /** Stockholm's `YYYY-MM-DD`: the last day is written without its year when it falls this year. */
  today: string;
}

export interface ShareKitTexts {
  sms: string;
  whatsapp: string;
  emailSubject: string;
  emailBody: string;
  /** The fridge note: its heading, and its text beside the link's QR code. */
  noteTitle: string;
  note: string;
}

/** What the square picture for social media says, line by line, around the QR code. */
export interface ShareImageLines {
  heading: string;
  /** The class goal's purpose, or a general appeal without a goal. */
  headline: string;
  /** 'Mål: 60 000 kr' with a goal. */
  target: string | null;
  call: string;
  lastDay: string | null;
}

/** 'Vi samlar till: Klassresa till Liseberg. Målet är 60 000 kr.', as the goal card writes its purpose. */
const goalSentence = (goal: ShareKitInput['goal']) =>
  goal ? `Vi samlar till: ${goal.purpose}. Målet är ${formatKronor(goal.amount)}.` : null;

/** The campaign's last day while one can still buy: before it has started too, not once it has ended. */
function lastDaySentence({ campaign, today }: ShareKitInput): string | null {
  if (!campaign || campaign.state === 'ended') return null;
  if (campaign.state === 'running' && campaign.days_left === 1) return 'I dag är sista dagen att handla!';
  return `Sista dagen att handla är ${formatCampaignDay(campaign.ends_on, today)}.`;
}

const opening = (input: ShareKitInput) =>
  input.goal ? 'Jag säljer hållbara produkter med min klass.' : 'Jag säljer hållbara produkter för att samla in pengar till min klass.';

const lines = (...parts: (string | null)[]) => parts.filter((part): part is string => part !== null);

/** Whose link the note and the picture name: 'Alvas länk', 'Max länk'; 'min länk' without a name. */
export const linkOwner = (sellerName: string) => (sellerName ? `${genitive(sellerName)} länk` : 'min länk');

export function shareKitTexts(input: ShareKitInput): ShareKitTexts {
  const { link, sellerName } = input;
  const goal = goalSentence(input.goal);
  const lastDay = lastDaySentence(input);
  const signature = sellerName ? `/${sellerName}` : null;
  const thanks = lines('Tack för ditt stöd!', signature).join(' ');
  const short = (goalLine: string | null) => lines(`Hej! ${opening(input)}`, goalLine, lastDay, `Handla via min länk: ${link}`).join(' ');
  return {
    sms: lines(short(goal), thanks).join('\n'),
    // WhatsApp sets *this* in bold: the goal stands out in a chat.
    whatsapp: lines(short(goal && `*${goal}*`), thanks).join('\n'),
    emailSubject: input.goal ? `Stöd vår insamling till ${input.goal.purpose}` : 'Stöd vår insamling',
    emailBody: lines(
      'Hej!',
      '',
      lines(opening(input), goal).join(' '),
      ...(lastDay ? [lastDay] : []),
      '',
      'Handlar du via min personliga länk räknas köpet till vår insamling:',
      link,
      '',
      'Tack för att du stöttar oss!',
      sellerName ? `Hälsningar, ${sellerName}` : null,
    ).join('\n'),
    noteTitle: `Handla via ${linkOwner(sellerName)}`,
    note: lines(`Hej! ${opening(input)}`, goal, 'Skanna koden med mobilens kamera och handla via min länk.', lastDay, thanks).join('\n'),
  };
}

export function shareImageLines(input: ShareKitInput): ShareImageLines {
  const lastDay =
    input.campaign && input.campaign.state !== 'ended' ? `Sista dagen: ${formatCampaignDay(input.campaign.ends_on, input.today)}` : null;
  return {
    heading: input.goal ? 'Vi samlar till' : 'Stöd vår insamling',
    headline: input.goal ? input.goal.purpose : 'Hållbara produkter – varje köp gör skillnad',
    target: input.goal ? `Mål: ${formatKronor(input.goal.amount)}` : null,
    call: `Skanna och handla via ${linkOwner(input.sellerName)}`,
    lastDay,
  };
}
