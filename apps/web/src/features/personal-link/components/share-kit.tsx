import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Copy, Download, Mail, MessageCircle, MessageSquare, Printer, Share2 } from 'lucide-react';
import { stockholmToday } from '@saljportalen/contract/plain';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { notify } from '@/lib/toast';
import { saveBlob } from '@/lib/api-client';
import { copyText } from '@/lib/clipboard';
import { qrModules, qrSvgPath, type QrModules } from '../qr-code';
import { canvasPng, drawShareImage, SHARE_IMAGE_SIZE } from '../share-image';
import { shareImageLines, shareKitTexts, type ShareKitInput } from '../share-kit-texts';
import { mailtoHref, smsHref, whatsAppHref } from '../share-links';

const SHARE_IMAGE_FILE = 'dela-insamlingen.png';

const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/** The system's share sheet; closing it is a choice, not a failure. */
async function share(data: ShareData): Promise<void> {
  try {
    await navigator.share(data);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    notify.error('Kunde inte dela', 'Kopiera texten och klistra in den där du vill dela den.');
  }
}

/** One channel's ready text, editable before it is sent, with its copy button and its routes out. */
function ChannelText({
  title,
  what,
  label,
  value,
  onChange,
  rows,
  children,
  shareData,
  before,
}: {
  title: string;
  /** What the buttons copy and share, for a screen reader: 'Kopiera SMS-texten'. */
  what: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  rows: number;
  /** The channel's own route (an app link, a print button), after 'Kopiera'. */
  children?: ReactNode;
  shareData?: ShareData;
  before?: ReactNode;
}) {
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const headingId = useId();
  const onCopy = async () => {
    try {
      await copyText(value, fieldRef.current);
      notify.success('Texten är kopierad', 'Klistra in den där du vill skicka den.');
    } catch {
      notify.error('Kunde inte kopiera texten');
    }
  };
  return (
    <section aria-labelledby={headingId} className="space-y-2 rounded-lg border border-line p-3 sm:p-4">
      <h4 id={headingId} className="font-semibold text-ink">
        {title}
      </h4>
      {before}
      <Field label={label}>
        {/* As tall as its text where the browser can (field-sizing), else `rows` lines. */}
        <Textarea
          ref={fieldRef}
          value={value}
          rows={rows}
          onChange={(event) => onChange(event.target.value)}
          className="text-sm field-sizing-content"
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button variant="brand" size="sm" onClick={onCopy}>
          <Copy aria-hidden="true" />
          Kopiera<span className="sr-only"> {what}</span>
        </Button>
        {children}
        {shareData && canShare() && (
          <Button variant="outline" size="sm" onClick={() => void share(shareData)}>
            <Share2 aria-hidden="true" />
            Dela<span className="sr-only"> {what}</span>
          </Button>
        )}
      </div>
    </section>
  );
}

function AppLink({
  href,
  icon: Icon,
  children,
  external = false,
}: {
  href: string;
  icon: typeof Mail;
  children: string;
  external?: boolean;
}) {
  return (
    <Button asChild variant="outline" size="sm">
      <a href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
        <Icon aria-hidden="true" />
        {children}
        {external && <span className="sr-only"> (öppnas i ny flik)</span>}
      </a>
    </Button>
  );
}

/** The link's QR code as SVG, one unit a module with a quiet zone of four. */
function QrSvg({ qr, className, label }: { qr: QrModules; className?: string; label?: string }) {
  const path = useMemo(() => qrSvgPath(qr), [qr]);
  return (
    <svg
      viewBox={`-4 -4 ${qr.size + 8} ${qr.size + 8}`}
      className={className}
      shapeRendering="crispEdges"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
    >
      <rect x={-4} y={-4} width={qr.size + 8} height={qr.size + 8} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}

/**
 * The fridge note as it is printed: only it, on its own sheet (styles.css hides the rest of the page
 * while `<html data-printing="note">`). Outside the app's root, so the page's layout never wraps it.
 */
function PrintedNote({ title, text, qr, link }: { title: string; text: string; qr: QrModules; link: string }) {
  return createPortal(
    <div className="print-note" aria-hidden="true">
      <h1>{title}</h1>
      <QrSvg qr={qr} className="print-note-qr" />
      <p className="print-note-text">{text}</p>
      <p className="print-note-link">{link}</p>
    </div>,
    document.body,
  );
}

function printNote() {
  const root = document.documentElement;
  root.dataset.printing = 'note';
  window.addEventListener('afterprint', () => delete root.dataset.printing, { once: true });
  window.print();
}

/** The square picture: drawn when the kit opens, shown as drawn, downloaded or shared as a PNG. */
function ShareImage({ input, qr }: { input: ShareKitInput; qr: QrModules }) {
  const canvas = useMemo(() => document.createElement('canvas'), []);
  const [preview, setPreview] = useState<string | null>(null);
  const lines = useMemo(() => shareImageLines(input), [input]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    try {
      drawShareImage(canvas, lines, qr, input.link);
      // A data: address, which the app's Content-Security-Policy allows for pictures (blob: it does not).
      setPreview(canvas.toDataURL('image/png'));
    } catch {
      // A browser without a 2d canvas: the texts and the note still work.
      setFailed(true);
    }
  }, [canvas, lines, qr, input.link]);

  const file = async () => new File([await canvasPng(canvas)], SHARE_IMAGE_FILE, { type: 'image/png' });
  const onDownload = async () => {
    try {
      saveBlob(await canvasPng(canvas), SHARE_IMAGE_FILE);
      notify.success('Bilden är nedladdad');
    } catch {
      notify.error('Kunde inte skapa bilden');
    }
  };
  const [shareFiles, setShareFiles] = useState(false);
  useEffect(() => {
    // Phones share a picture straight to Instagram or Facebook; most desktops cannot.
    if (typeof navigator.canShare === 'function') {
      setShareFiles(navigator.canShare({ files: [new File([''], SHARE_IMAGE_FILE, { type: 'image/png' })] }));
    }
  }, []);
  const alt = [lines.heading, lines.headline, lines.target, 'QR-kod till länken', lines.call, lines.lastDay].filter(Boolean).join('. ');

  return (
    <section aria-labelledby="share-image-title" className="space-y-2 rounded-lg border border-line p-3 sm:p-4">
      <h4 id="share-image-title" className="font-semibold text-ink">
        Bild för sociala medier
      </h4>
      <p className="text-sm text-muted">
        En fyrkantig bild ({SHARE_IMAGE_SIZE} × {SHARE_IMAGE_SIZE} pixlar) med klassens mål och en QR-kod till din länk, att lägga upp på
        till exempel Instagram eller Facebook.
      </p>
      {failed && <p className="text-sm text-ink">Den här webbläsaren kan inte skapa bilden. Texterna och lappen fungerar ändå.</p>}
      {preview && <img src={preview} alt={alt} width={240} height={240} className="size-60 rounded-md border border-line" />}
      <div className="flex flex-wrap gap-2">
        <Button variant="brand" size="sm" onClick={() => void onDownload()} disabled={failed}>
          <Download aria-hidden="true" />
          Ladda ner bilden (PNG)
        </Button>
        {shareFiles && (
          <Button variant="outline" size="sm" onClick={() => void file().then((png) => share({ files: [png], text: input.link }))}>
            <Share2 aria-hidden="true" />
            Dela bilden
          </Button>
        )}
      </div>
    </section>
  );
}

/**
 * The share kit (issue 32 point 4, decision 075): ready texts for SMS, e-mail, WhatsApp and a
 * fridge note, and a square picture with a QR code. Loaded when the pupil first opens it, so a
 * dashboard that never does downloads none of it (nor the QR code's package).
 */
export default function ShareKit(props: Omit<ShareKitInput, 'today'>) {
  const { link, sellerName, goal, campaign } = props;
  const input = useMemo(() => ({ link, sellerName, goal, campaign, today: stockholmToday() }), [link, sellerName, goal, campaign]);
  const ready = useMemo(() => shareKitTexts(input), [input]);
  const qr = useMemo(() => qrModules(link), [link]);
  const [sms, setSms] = useState(ready.sms);
  const [whatsapp, setWhatsapp] = useState(ready.whatsapp);
  const [subject, setSubject] = useState(ready.emailSubject);
  const [body, setBody] = useState(ready.emailBody);
  const [note, setNote] = useState(ready.note);

  return (
    <div className="grid gap-3 sm:gap-4 md:grid-cols-2 [&>*]:min-w-0">
      <p className="text-sm text-muted md:col-span-2">
        Texterna är färdiga att skicka, men du kan ändra dem först. Länken finns redan med.
      </p>
      <ChannelText title="SMS" what="SMS-texten" label="Text för SMS" value={sms} onChange={setSms} rows={7} shareData={{ text: sms }}>
        <AppLink href={smsHref(sms)} icon={MessageSquare}>
          Öppna i SMS
        </AppLink>
      </ChannelText>
      <ChannelText
        title="WhatsApp"
        what="WhatsApp-texten"
        label="Text för WhatsApp"
        value={whatsapp}
        onChange={setWhatsapp}
        rows={7}
        shareData={{ text: whatsapp }}
      >
        <AppLink href={whatsAppHref(whatsapp)} icon={MessageCircle} external>
          Öppna i WhatsApp
        </AppLink>
      </ChannelText>
      <ChannelText
        title="E-post"
        what="mejlet"
        label="Mejlets text"
        value={body}
        onChange={setBody}
        rows={13}
        shareData={{ title: subject, text: body }}
        before={
          <Field label="Ämnesrad">
            <Input value={subject} onChange={(event) => setSubject(event.target.value)} className="text-sm" />
          </Field>
        }
      >
        <AppLink href={mailtoHref(subject, body)} icon={Mail}>
          Öppna i e-post
        </AppLink>
      </ChannelText>
      <ChannelText
        title="Lapp på kylskåpet"
        what="lappens text"
        label="Lappens text"
        value={note}
        onChange={setNote}
        rows={7}
        before={
          <div className="flex items-center gap-3">
            <QrSvg qr={qr} className="size-24 shrink-0 rounded border border-line" label={`QR-kod till ${link}`} />
            <p className="text-sm text-muted">Skriv ut lappen med QR-koden och sätt upp den på kylskåpet, hemma eller hos släkten.</p>
          </div>
        }
      >
        <Button variant="outline" size="sm" onClick={printNote}>
          <Printer aria-hidden="true" />
          Skriv ut lappen
        </Button>
      </ChannelText>
      <PrintedNote title={ready.noteTitle} text={note} qr={qr} link={link} />
      <ShareImage input={input} qr={qr} />
    </div>
  );
}
