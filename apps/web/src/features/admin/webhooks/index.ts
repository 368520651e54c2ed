// The admin's Shopify webhook events.
export { WebhooksPage } from './webhooks-page';
