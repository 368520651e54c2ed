import type { Db, Tx } from './client.js';
import { mailOutbox } from './schema.js';
import type { Mail } from '../lib/mailer.js';

/**
 * Queues mails in the caller's transaction: they are sent if and only if the action that caused
 * them commits, and once queued, no mail server outage loses them.
 */
export async function enqueueMails(db: Db | Tx, mails: Mail[]): Promise<void> {
  if (mails.length === 0) return;
  await db.insert(mailOutbox).values(
    mails.map((mail) => ({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      // The HTML part, where the Mail carries one.
      html: mail.html ?? null,
      link: mail.link ?? null,
    })),
  );
}

/** What the mail sender (plugins/mail-outbox.ts) offers as `app.mailOutbox`. */
export interface MailOutbox {
  /**
   * Tells the sender that mails were committed. With the file outbox (no SMTP_URL) it resolves
   * once they are written, so tests and the demo find them at once; with SMTP it resolves at once
   * and the sender delivers in the background, so a slow mail server never holds a request.
   */
  deliverSoon(): Promise<void>;
  /**
   * Deletes the outbox folder's file of every mail whose row is gone, and every file older than
   * `olderThan` (RETENTION.sentMailDays before now unless given): called after an erasure, which
   * deletes the person's rows, and by the retention job (issue 28). Returns how many went.
   */
  forgetFiles(olderThan?: Date): Promise<number>;
}
