/** `npm run replay-webhooks [-- --id N]`: see docs/shopify.md. */
import { runCommand } from './cli.js';
import { replayWebhookEvents } from './replay-webhook-events.js';

await runCommand(async ({ db, config }) => {
  const idFlag = process.argv.indexOf('--id');
  const eventId = idFlag >= 0 ? Number(process.argv[idFlag + 1]) : undefined;
  if (eventId !== undefined && !(Number.isInteger(eventId) && eventId > 0)) {
    console.error('Ange händelsens nummer: npm run replay-webhooks -- --id 42');
    return 2;
  }
  const totals = await replayWebhookEvents(db, {
    defaultCommissionBps: config.defaultCommissionBps,
    eventId,
    report(event, result) {
      const text = result.status === 'failed' ? `MISSLYCKADES: ${result.error}` : result.outcome;
      console.log(`#${event.id} ${event.topic}: ${text}`);
    },
  });
  if (eventId !== undefined && totals.processed + totals.failed === 0) {
    console.error(`Händelse ${eventId} finns inte`);
    return 1;
  }
  console.log(`${totals.processed} händelser behandlade, ${totals.failed} misslyckades.`);
  return totals.failed > 0 ? 1 : 0;
});
