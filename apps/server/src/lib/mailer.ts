import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import writeFileAtomic from 'write-file-atomic';
import type { FastifyBaseLogger } from 'fastify';
import { withoutAddresses } from './log-redaction.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The same mail as HTML, beside the text part (lib/mail-template.ts makes both). */
  html?: string;
  /** The one link a person must follow, logged when mail goes to the outbox folder. */
  link?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * How the mail sender of the outbox (plugins/mail-outbox.ts) delivers one mail: SMTP when
 * SMTP_URL is set; otherwise each mail is written as JSON to DATA_DIR/outbox and its
 * link is logged, so a demo or a test can follow it (DESIGN D6).
 */
export function createMailer(options: { smtpUrl?: string; from: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (options.smtpUrl) {
    // Bounded, so one attempt ends well within the outbox's lease (plugins/mail-outbox.ts) when
    // the mail server hangs instead of refusing.
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  return {
    async send(mail) {
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.json`);
      // Written whole, then renamed into place: a reader never sees half a mail.
      await writeFileAtomic(file, JSON.stringify({ from: options.from, ...mail, sentAt: new Date().toISOString() }, null, 2));
      // The address is not logged: the file holds it for whoever runs the server.
      options.log.info({ file, link: mail.link }, `e-post sparad i utkorgen: ${mail.subject}`);
    },
  };
}

/**
 * What to log when a mail could not be sent: the reason, with every address in it blanked out.
 * SMTP servers name the recipient in their refusals, and addresses are never logged.
 */
export function mailFailureForLog(error: unknown): { reason: string; code?: string } {
  const reason = withoutAddresses(error instanceof Error ? error.message : String(error));
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? { reason, code } : { reason };
}
