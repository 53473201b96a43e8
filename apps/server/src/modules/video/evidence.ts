import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { EvidencePack, EvidencePublic } from '@sitewatch/contracts/video';
import { hmac, hmacKey, safeEqual } from '../../platform/crypto.ts';
import { runFfmpeg } from '../../platform/ffmpeg/index.ts';
import type { IncidentRow } from './repository.ts';

// Standard PDF fonts (no font files), and no reading or fetching of anything else a document names.
const HELVETICA = { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' };
const STANDARD_FONTS = new Set(Object.values(HELVETICA));
let pdfmakeLoad: Promise<typeof import('pdfmake').default> | undefined;

/** pdfmake is loaded with the first evidence pack: it is several megabytes of heap that most processes never use. */
function loadPdfmake() {
  pdfmakeLoad ??= import('pdfmake').then(({ default: pdfmake }) => {
    pdfmake.setFonts({ Helvetica: HELVETICA });
    pdfmake.setUrlAccessPolicy(() => false);
    pdfmake.setLocalAccessPolicy((path) => STANDARD_FONTS.has(path));
    return pdfmake;
  });
  return pdfmakeLoad;
}

interface Claims {
  /** tenant, incident, expiry (unix seconds) */
  t: number;
  i: number;
  e: number;
}

async function sha256Of(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { sha256: hash.digest('hex'), bytes: (await stat(path)).size };
}

const fmt = (d: Date | string) =>
  new Date(d)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

/**
 * Evidence packs of incidents: a PDF summary beside the incident's MP4, each with its SHA-256, shared by a signed,
 * expiring link that names its tenant and incident (an HMAC over the claims, checked in constant time).
 */
export function createEvidencePacks(secretBytes: Uint8Array) {
  const secret = hmacKey(secretBytes);

  function sign(claims: Claims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${hmac(secret, payload)}`;
  }

  const expiryOf = (now: Date, days: number) => Math.floor(now.getTime() / 1000) + days * 86_400;
  const packFiles = (summary: { sha256: string; bytes: number }, clip: { sha256: string; bytes: number }): EvidencePack['files'] => [
    { name: 'summary.pdf', label: 'PDF summary', ...summary },
    { name: 'clip.mp4', label: 'Video clip (MP4)', ...clip },
  ];

  return {
    /** A link to an incident's pack for `days` (the pack itself is built by `build`). */
    link: (tenantId: number, incidentId: number, days: number, now = new Date()) =>
      sign({ t: tenantId, i: incidentId, e: expiryOf(now, days) }),
    /** The claims of a valid, unexpired link of this tenant, or null (never says which check failed). */
    verify(token: string, tenantId: number, now = new Date()): { incidentId: number; expiresAt: Date } | null {
      const [payload, signature] = token.split('.');
      if (!payload || !signature || !safeEqual(hmac(secret, payload), signature)) return null;
      let claims: Claims;
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Claims;
      } catch {
        return null;
      }
      if (claims.t !== tenantId || !Number.isInteger(claims.i) || claims.e * 1000 <= now.getTime()) return null;
      return { incidentId: claims.i, expiresAt: new Date(claims.e * 1000) };
    },

    /** Writes the PDF summary next to the clip and returns the files with their hashes and a link. */
    async build(
      row: IncidentRow,
      tenantId: number,
      files: { clip: string; summary: string },
      opts: { days: number; createdByName: string | null; now?: Date },
    ): Promise<Omit<EvidencePack, 'url'> & { token: string }> {
      const now = opts.now ?? new Date();
      const clip = await sha256Of(files.clip);
      const still = `${files.summary}.still.jpg`;
      let image: string | null = null;
      try {
        await runFfmpeg([
          '-protocol_whitelist',
          'file',
          '-ss',
          '1',
          '-i',
          files.clip,
          '-frames:v',
          '1',
          '-vf',
          'scale=480:-2',
          '-q:v',
          '5',
          '-y',
          still,
        ]);
        image = `data:image/jpeg;base64,${(await readFile(still)).toString('base64')}`;
      } catch {
        // a clip too short for a still: the summary goes without one
      } finally {
        await rm(still, { force: true });
      }
      const facts: Array<[string, string]> = [
        ['Title', row.title],
        ['AWB', row.awb],
        ['Table', row.table_number],
        ['Camera', row.camera_label ?? `Camera ${row.device_id}`],
        ['Event time', fmt(row.event_at)],
        ['Duration', `${row.duration_sec} s`],
        ['Status', row.status],
      ];
      if (opts.createdByName) facts.push(['Reported by', opts.createdByName]);
      facts.push(['Reported at', fmt(row.created_at)]);
      const definition = {
        info: { title: `Incident ${row.id}: ${row.title}`, producer: 'Sitewatch' },
        defaultStyle: { font: 'Helvetica', fontSize: 10 },
        content: [
          { text: 'Incident evidence', fontSize: 18, bold: true, margin: [0, 0, 0, 4] },
          { text: `Generated ${fmt(now)}`, color: '#555555', margin: [0, 0, 0, 12] },
          {
            table: { widths: [110, '*'], body: facts.map(([k, v]) => [{ text: k, bold: true }, v || '—']) },
            layout: 'lightHorizontalLines',
          },
          ...(row.description ? [{ text: 'Description', bold: true, margin: [0, 12, 0, 2] }, { text: row.description }] : []),
          ...(image ? [{ image, width: 320, margin: [0, 12, 0, 0] }] : []),
          { text: 'Files', bold: true, margin: [0, 12, 0, 2] },
          {
            table: {
              widths: [80, 70, '*'],
              body: [
                [
                  { text: 'File', bold: true },
                  { text: 'Bytes', bold: true },
                  { text: 'SHA-256', bold: true },
                ],
                ['clip.mp4', String(clip.bytes), { text: clip.sha256, fontSize: 8 }],
              ],
            },
          },
          { text: 'The hash of this summary is given with the link that shared it.', color: '#555555', margin: [0, 8, 0, 0] },
        ],
      };
      await writeFile(files.summary, await (await loadPdfmake()).createPdf(definition).getBuffer());
      const summary = await sha256Of(files.summary);
      const expires = expiryOf(now, opts.days);
      return {
        token: sign({ t: tenantId, i: row.id, e: expires }),
        expiresAt: new Date(expires * 1000).toISOString(),
        files: packFiles(summary, clip),
      };
    },

    /** The files of an existing pack with their hashes (the public page). */
    async describe(row: IncidentRow, files: { clip: string; summary: string }, expiresAt: Date): Promise<EvidencePublic> {
      const [summary, clip] = await Promise.all([sha256Of(files.summary), sha256Of(files.clip)]);
      return {
        title: row.title,
        awb: row.awb,
        tableNumber: row.table_number,
        cameraLabel: row.camera_label ?? `Camera ${row.device_id}`,
        eventAt: new Date(row.event_at).toISOString(),
        durationSec: row.duration_sec,
        expiresAt: expiresAt.toISOString(),
        files: packFiles(summary, clip),
      };
    },
  };
}
export type EvidencePacks = ReturnType<typeof createEvidencePacks>;
