// A class's campaign (issue 31): its days, its end, what the money became, next term. Other features import only from here.
export { CampaignNotices } from './components/campaign-notices';
export { CampaignForm } from './components/campaign-form';
export { CampaignEndCard } from './components/campaign-end-card';
