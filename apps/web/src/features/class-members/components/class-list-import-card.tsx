import { useId, useState, type ChangeEvent } from 'react';
import { ROSTER_MAX_ROWS, ROSTER_OUTCOME_LABELS, type TRosterResponse } from '@saljportalen/contract';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { notify, notifyFailure } from '@/lib/toast';
import { useClassMembers } from '../api/class-members';
import { downloadSignInSlips, useImportRoster } from '../api/import-roster';
import { parseClassList, rosterPupils, type ClassListRow } from '../lib/parse-class-list';
import { unprintableWarning } from '@/lib/printable';

const sameName = (name: string) => name.trim().replace(/\s+/g, ' ').toLocaleLowerCase('sv');

/** '1 elev tillagd, 2 rader inte tillagda': Swedish singular and plural. */
const addedText = (added: number) => `${added} ${added === 1 ? 'elev tillagd' : 'elever tillagda'}`;
const refusedText = (refused: number) => `${refused} ${refused === 1 ? 'rad inte tillagd' : 'rader inte tillagda'}`;

/** A file as text: UTF-8, or Windows-1252 (an older Excel's CSV) when it is not valid UTF-8. */
async function readFileText(file: File): Promise<string> {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function PreviewTable({ rows, inGroup }: { rows: ClassListRow[]; inGroup: Set<string> }) {
  return (
    <Table label="Förhandsgranskning av klasslistan" cards>
      <THead>
        <Tr>
          <Th>Rad</Th>
          <Th>Namn</Th>
          <Th>Vårdnadshavarens e-post</Th>
          <Th>Vad som händer</Th>
        </Tr>
      </THead>
      <TBody>
        {rows.map((row) => (
          <Tr key={row.line}>
            <Td data-label="Rad">{row.line}</Td>
            <Td data-label="Namn" className="[overflow-wrap:anywhere]">
              {row.full_name || '–'}
              {/* The name prints on the sign-in slip and the catalogue: a character they cannot print is said here, before saving. */}
              {unprintableWarning(row.full_name) && (
                <span className="block text-sm text-amber-900">{unprintableWarning(row.full_name)}</span>
              )}
            </Td>
            <Td data-label="Vårdnadshavarens e-post" className="[overflow-wrap:anywhere]">
              {row.guardian_email || 'Ingen (inloggningslapp)'}
            </Td>
            <Td data-label="Vad som händer">
              {row.problem ? (
                <span className="font-medium text-danger">{row.problem}</span>
              ) : inGroup.has(sameName(row.full_name)) ? (
                'Finns redan i gruppen'
              ) : row.guardian_email ? (
                'Läggs till, vårdnadshavaren får ett mejl'
              ) : (
                'Läggs till'
              )}
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

function OutcomeTable({ result }: { result: TRosterResponse }) {
  return (
    <Table label="Resultat av klasslistan" cards>
      <THead>
        <Tr>
          <Th>Namn</Th>
          <Th>Resultat</Th>
          <Th>Användarnamn</Th>
        </Tr>
      </THead>
      <TBody>
        {result.rows.map((row, index) => (
          <Tr key={index}>
            <Td data-label="Namn" className="[overflow-wrap:anywhere]">
              {row.full_name || '–'}
            </Td>
            <Td data-label="Resultat">
              <Badge variant={row.outcome === 'added' ? 'success' : row.outcome === 'refused' ? 'danger' : 'default'}>
                {ROSTER_OUTCOME_LABELS[row.outcome]}
              </Badge>
              {row.reason && <span className="ml-2 text-danger">{row.reason}</span>}
              {row.guardian_invited && <span className="ml-2 text-muted">Mejl skickat till vårdnadshavaren</span>}
            </Td>
            <Td data-label="Användarnamn">{row.username ?? '–'}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/**
 * Issue 31: the teacher pastes or uploads the class list, sees each row before anything is
 * saved, saves, sees each row's outcome, and prints sign-in slips for the pupils whose guardian's
 * address is not known.
 */
export function ClassListImportCard({ groupId }: { groupId: number }) {
  const titleId = useId();
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<ClassListRow[] | null>(null);
  const [result, setResult] = useState<TRosterResponse | null>(null);
  const [printing, setPrinting] = useState(false);
  const members = useClassMembers(groupId);
  const save = useImportRoster(groupId);
  const inGroup = new Set((members.data?.items ?? []).map((member) => sameName(member.full_name)));

  const showPreview = (source: string) => {
    setResult(null);
    setPreview(parseClassList(source));
  };
  const [fileName, setFileName] = useState<string>();
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const content = await readFileText(file);
    setText(content);
    showPreview(content);
  };
  const onSave = async () => {
    if (!preview) return;
    try {
      const answer = await save.mutateAsync({ group_id: groupId, pupils: rosterPupils(preview) });
      setResult(answer);
      setPreview(null);
      setText('');
      notify.success('Klasslistan sparad', `${addedText(answer.added)}${answer.refused > 0 ? `, ${refusedText(answer.refused)}` : ''}.`);
    } catch (error) {
      notifyFailure('Kunde inte spara klasslistan', error);
    }
  };
  const onPrint = async () => {
    setPrinting(true);
    try {
      await downloadSignInSlips(groupId);
      notify.success('Inloggningslappar nedladdade');
    } catch (error) {
      notifyFailure('Kunde inte skapa inloggningslappar', error);
    } finally {
      setPrinting(false);
    }
  };
  const problems = preview?.filter((row) => row.problem !== null).length ?? 0;
  const tooMany = (preview?.length ?? 0) > ROSTER_MAX_ROWS;

  return (
    <Card aria-labelledby={titleId} role="region">
      <CardHeader className="space-y-2">
        <CardTitle id={titleId}>Lägg till elever från klasslista</CardTitle>
        <p className="text-sm text-muted">
          En elev per rad: för- och efternamn, och om du vill en vårdnadshavares e-postadress, skilda med semikolon, tabb eller komma (till
          exempel en CSV-fil från Excel). Eleverna får ett användarnamn i stället för e-post. Vårdnadshavaren godkänner och väljer elevens
          lösenord; för elever utan vårdnadshavarens adress skriver du ut inloggningslappar.
        </p>
      </CardHeader>
      <CardContent className="space-y-4">
        <Field label="Klasslista" hint="Klistra in från ett kalkylark eller skriv en elev per rad.">
          <Textarea rows={6} value={text} onChange={(event) => setText(event.target.value)} spellCheck={false} />
        </Field>
        {/* The browser's own file button speaks the browser's language: this one speaks Swedish. */}
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-ink">Eller välj en fil (CSV eller text)</p>
          <div className="flex flex-wrap items-center gap-3">
            <label className="inline-flex h-11 cursor-pointer items-center rounded-md border border-slate-400 bg-white px-4 font-semibold text-ink hover:bg-slate-50 focus-within:outline focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand">
              Välj fil
              <input
                type="file"
                className="sr-only"
                aria-label="Eller välj en fil (CSV eller text)"
                accept=".csv,.txt,text/csv,text/plain"
                onChange={(event) => {
                  setFileName(event.target.files?.[0]?.name);
                  void onFile(event);
                }}
              />
            </label>
            <span className="text-sm text-muted [overflow-wrap:anywhere]">{fileName ?? 'Ingen fil vald'}</span>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => showPreview(text)} disabled={text.trim() === ''}>
            Förhandsgranska
          </Button>
          <Button variant="outline" onClick={() => void onPrint()} disabled={printing}>
            {printing ? 'Skapar lappar...' : 'Skriv ut inloggningslappar'}
          </Button>
        </div>
        {preview && preview.length === 0 && <Alert tone="info" title="Inga elever i listan." />}
        {preview && preview.length > 0 && (
          <div className="space-y-3">
            <p className="text-sm text-ink" role="status">
              {`${preview.length} ${preview.length === 1 ? 'rad' : 'rader'}${problems > 0 ? `, ${problems} med fel som inte sparas` : ''}. Inget är sparat än.`}
            </p>
            {tooMany && <Alert tone="error" title={`En klasslista får ha högst ${ROSTER_MAX_ROWS} rader`} />}
            <PreviewTable rows={preview} inGroup={inGroup} />
            <Button variant="brand" onClick={() => void onSave()} disabled={save.isPending || tooMany || problems === preview.length}>
              {save.isPending ? 'Sparar...' : 'Spara klasslistan'}
            </Button>
          </div>
        )}
        {result && (
          <div className="space-y-3">
            <p className="text-sm text-ink" role="status">
              {`${addedText(result.added)}, ${refusedText(result.refused)}.`}
            </p>
            <OutcomeTable result={result} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
