import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { RETENTION } from '@saljportalen/contract';
import { PageContainer } from '@/components/layout/app-layout';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/lib/paths';
import { usePrivacyInfo } from './api/privacy-info';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card aria-labelledby={id} role="region">
      <CardHeader>
        <CardTitle id={id}>{title}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3 leading-relaxed">{children}</CardContent>
    </Card>
  );
}

function Contact() {
  const { data, isError } = usePrivacyInfo();
  if (isError)
    return <p>Kontaktuppgiften kunde inte hämtas just nu. Fråga klassens lärare eller föreningens ledare, så hjälper de dig vidare.</p>;
  if (!data) return <p aria-busy="true">Hämtar kontaktuppgift…</p>;
  return (
    <p>
      Skriv till{' '}
      {EMAIL.test(data.contact) ? (
        <a href={`mailto:${data.contact}`} className="font-medium text-brand underline underline-offset-4">
          {data.contact}
        </a>
      ) : (
        <strong>{data.contact}</strong>
      )}
      . Vi svarar inom en månad, oftast mycket snabbare.
    </p>
  );
}

/**
 * `/integritet` (issue 22): what the portal keeps about a seller and a buyer, why, for how long and
 * who sees it, written for a parent. The periods are the ones the retention job deletes by
 * (RETENTION in the contract); the contact is the server's PRIVACY_CONTACT.
 */
export function PrivacyPage() {
  const linkClassName = 'font-medium text-brand underline underline-offset-4';
  return (
    <PageContainer>
      <div className="mx-auto max-w-3xl space-y-6">
        <header className="space-y-3">
          <h1 className="text-3xl font-bold text-ink">Så hanterar vi dina uppgifter</h1>
          <p className="text-lg leading-relaxed text-muted">
            Säljportalen hjälper klasser och föreningar att samla pengar genom att sälja hållbara produkter. De flesta som säljer är barn.
            Därför sparar vi så lite som möjligt, så kort tid som möjligt, och visar det bara för dem som behöver se det. Här är allt, utan
            krångliga ord.
          </p>
        </header>

        <Section id="vad-vi-sparar" title="Vad vi sparar och varför">
          <ul className="list-disc space-y-2 pl-5">
            <li>
              <strong>Säljarens konto:</strong> namn, e-postadress och lösenord (bara i krypterad form, ingen kan läsa det), och
              telefonnummer om man själv lagt till det. Det behövs för att kunna logga in och för att läraren ska veta vem som har sålt.
            </li>
            <li>
              <strong>Grupp och säljlänk:</strong> vilken klass eller förening man säljer för, och den personliga länken som köpen räknas
              till.
            </li>
            <li>
              <strong>Försäljning:</strong> vilka produkter som sålts genom länken, belopp och provision. Det behövs för att räkna ut vad
              klassen får.
            </li>
            <li>
              <strong>Besök på länken:</strong> bara hur många som klickat varje dag. Vi sparar aldrig vem som klickade, ingen IP-adress och
              ingen uppgift om webbläsaren.
            </li>
            <li>
              <strong>Köparna:</strong> vi sparar aldrig köparens namn, adress, e-post eller telefonnummer. De finns bara hos butiken som
              skickar varorna.
            </li>
            <li>
              <strong>Val man gjort:</strong> vilket namn köpare ser (förnamn om inget annat valts), och om man vill få mejl när man säljer.
            </li>
            <li>
              <strong>Vårdnadshavare:</strong> för barn under 13 år sparar vi vårdnadshavarens e-postadress och när samtycket gavs.
            </li>
          </ul>
        </Section>

        <Section id="vem-ser" title="Vem ser vad">
          <ul className="list-disc space-y-2 pl-5">
            <li>
              <strong>Säljaren och vårdnadshavaren</strong> ser säljarens egna siffror, gruppens resultat och länken att dela.
            </li>
            <li>
              <strong>Läraren eller ledaren</strong> ser sin egen grupps säljare och vad de sålt, för att kunna redovisa till klassen.
            </li>
            <li>
              <strong>Andra i gruppen</strong> ser topplistan bara om läraren har slagit på den. Den som har skyddade personuppgifter syns
              aldrig där, och visas bara med ett alias.
            </li>
            <li>
              <strong>Köpare</strong> ser säljarens förnamn (eller det namn familjen valt) i katalogen och på länken.
            </li>
            <li>
              <strong>Vi som driver portalen</strong> ser det som behövs för att betala ut pengarna till klassen och hjälpa till när något
              krånglar.
            </li>
          </ul>
          <p>Vi säljer aldrig uppgifter, visar ingen reklam och delar inget med någon annan än butiken som skickar varorna.</p>
        </Section>

        <Section id="hur-lange" title="Hur länge vi sparar">
          <ul className="list-disc space-y-2 pl-5">
            <li>
              <strong>Kontot</strong> raderas automatiskt när gruppen är avslutad och ingen har loggat in på{' '}
              {RETENTION.inactiveAccountMonths} månader. Du kan också radera det själv när som helst.
            </li>
            <li>
              <strong>Antal klick per dag</strong> sparas i {RETENTION.linkClickMonths} månader.
            </li>
            <li>
              <strong>En inloggning på en enhet</strong> gäller i högst {RETENTION.sessionDays} dagar. Efter utloggning tas den bort inom{' '}
              {RETENTION.revokedSessionDays} dagar.
            </li>
            <li>
              <strong>Koder för nytt lösenord</strong> fungerar i {RETENTION.resetCodeMinutes} minuter och raderas sedan. Koden i mejlet
              till vårdnadshavaren raderas också när den gått ut.
            </li>
            <li>
              <strong>Försäljning och utbetalningar</strong> sparas i {RETENTION.bookkeepingYears} år, för att bokföringslagen kräver det.
              När ett konto raderats står det bara ”Borttagen säljare” vid försäljningen, så att klassens summa stämmer utan att någon kan
              se vem det var.
            </li>
          </ul>
          <p>Rensningen sker av sig själv varje natt.</p>
        </Section>

        <Section id="under-13" title="Barn under 13 år">
          <p>
            Enligt svensk lag kan ett barn under 13 år inte själv godkänna att en tjänst på nätet sparar uppgifter om det. När ett barn
            under 13 registrerar sig får vårdnadshavaren därför ett mejl med en länk, där man ser vad som sparas och kan godkänna eller säga
            nej.
          </p>
          <p>
            Tills vårdnadshavaren har godkänt kan barnet logga in, men syns inte på någon topplista och länken fungerar inte än. Säger
            vårdnadshavaren nej raderas kontot. Vårdnadshavaren kan också ta tillbaka sitt godkännande senare, och då raderas kontot.
          </p>
        </Section>

        <Section id="ladda-ner-radera" title="Ladda ner eller radera dina uppgifter">
          <p>
            Logga in och gå till{' '}
            <Link to={paths.accountSettings} className={linkClassName}>
              Konto
            </Link>
            . Där finns två knappar:
          </p>
          <ul className="list-disc space-y-2 pl-5">
            <li>
              <strong>Ladda ner mina uppgifter</strong> ger dig en fil med allt vi har sparat om dig.
            </li>
            <li>
              <strong>Radera mitt konto</strong> tar bort kontot och dina personuppgifter. Försäljningen finns kvar i bokföringen, men utan
              ditt namn.
            </li>
          </ul>
        </Section>

        <Section id="varfor-far-vi" title="Varför vi får spara uppgifterna">
          <ul className="list-disc space-y-2 pl-5">
            <li>För att kunna ge den tjänst som skolan eller föreningen har valt: räkna försäljning och betala ut pengarna.</li>
            <li>För barn under 13 år: för att en vårdnadshavare har godkänt det.</li>
            <li>För försäljning och utbetalningar: för att bokföringslagen kräver att de sparas.</li>
          </ul>
        </Section>

        <Section id="kontakt" title="Frågor eller klagomål">
          <Contact />
          <p>
            Tycker du att vi hanterar uppgifter fel kan du också vända dig till Integritetsskyddsmyndigheten (IMY), som granskar hur
            personuppgifter skyddas i Sverige.
          </p>
        </Section>
      </div>
    </PageContainer>
  );
}
