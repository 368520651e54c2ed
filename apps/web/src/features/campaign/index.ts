// A class's campaign (issue 31): its days, its end, what the money became, next term. Other features import only from here.
export { CampaignStatus, campaignText } from './components/campaign-status';
export { ClosingNoteCard } from './components/closing-note-card';
export { CampaignForm } from './components/campaign-form';
export { CampaignEndCard } from './components/campaign-end-card';
