/**
 * The recapitulative statement as the Financial Administration takes it (issue #44; `svdph20.xsd`, form
 * SVDPHv20): `dokument` with `hlavicka` (the filer's IČ DPH without its prefix in `dic`, the tax office,
 * the kind R/O/D as `riadny`/`opravny`/`dodatocny`, the period, the name on four lines, the address, the
 * total of the lines, the person filing and the date) and `telo` with pages (`strana`) of exactly twelve
 * records (`zaznam`: `kodStatu`, `idCislo`, `hodnota`, `kod`; unused ones empty) and twelve empty
 * call-off-stock records (`zaznamCast2`, which these books do not have). Built with fast-xml-parser's
 * builder, as the other filings. Pure.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { FilingPeriod } from './period.js';
import type { RecapLine } from './recapitulative.js';
import { addressOf, type Filer } from './xml.js';

const builder = new XMLBuilder({ ignoreAttributes: false, suppressEmptyNode: true, format: true });

/** Records per page: the schema's `minOccurs`/`maxOccurs` of `zaznam`. */
const PER_PAGE = 12;

/** `text` split on word boundaries into `count` lines of at most `width` characters (the form's name box). */
export function nameLines(text: string, count = 4, width = 36): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!line) line = word;
    else if (`${line} ${word}`.length <= width) line += ` ${word}`;
    else {
      out.push(line);
      line = word;
    }
  }
  if (line) out.push(line);
  while (out.length < count) out.push('');
  return out.length > count ? [...out.slice(0, count - 1), out.slice(count - 1).join(' ')] : out;
}

const emptyRecord = { kodStatu: '', idCislo: '', hodnota: '', kod: '' };
const emptyCallOff = { kodStatu: '', idCislo: '', idCislo2: '', vratenieTovaru: '', oprava: '' };

/** The statement of `period` filed as `kind` with `lines` (all of them for R; the changed ones for O, D). */
export function recapXml(
  lines: RecapLine[],
  total: string,
  period: FilingPeriod,
  kind: 'R' | 'O' | 'D',
  filer: Filer,
  declaredOn: string,
): string {
  const pages = Math.max(1, Math.ceil(lines.length / PER_PAGE));
  const strana = Array.from({ length: pages }, (_, p) => ({
    zaznam: Array.from({ length: PER_PAGE }, (_, i) => {
      const l = lines[p * PER_PAGE + i];
      return l ? { kodStatu: l.country, idCislo: l.vatNumber, hodnota: l.value, kod: l.code } : emptyRecord;
    }),
    zaznamCast2: Array.from({ length: PER_PAGE }, () => emptyCallOff),
  }));
  const [y, m, d] = declaredOn.split('-');
  const tree = {
    dokument: {
      hlavicka: {
        identifikacneCislo: {
          kodStatu: filer.vatNumber.slice(0, 2),
          dic: filer.vatNumber.slice(2),
        },
        danovyUrad: filer.taxOffice ?? '',
        druhSV: {
          riadny: kind === 'R' ? '1' : '',
          opravny: kind === 'O' ? '1' : '',
          dodatocny: kind === 'D' ? '1' : '',
        },
        obdobie: {
          mesiac: period.month ? String(period.month).padStart(2, '0') : '',
          stvrtrok: period.quarter ? String(period.quarter) : '',
          rok: String(period.year),
        },
        obchodneMeno: { riadok: nameLines(filer.name) },
        adresa: { ...addressOf(filer), tel: filer.phone ?? '', email: filer.email ?? '' },
        celkovaHodnota: total,
        konatel: filer.authorizedPerson?.name ?? '',
        konatelTel: filer.authorizedPerson?.phone ?? '',
        konatelEmail: filer.authorizedPerson?.email ?? '',
        datumVyhlasenia: { den: String(Number(d)), mesiac: String(Number(m)), rok: y },
      },
      telo: { strana },
    },
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(tree)}`;
}
