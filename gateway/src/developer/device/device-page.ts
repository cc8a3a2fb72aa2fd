import type { DeviceHealth } from './device-health.js';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => escapes[character] ?? character);

const statusLabel: Record<string, string> = { pass: 'Pass', warn: 'Warning', fail: 'Failing', skip: 'Skipped' };

/**
 * The developer device page, rendered on the server: no script, no external resource, nothing that
 * could carry the token anywhere (the answer's CSP allows inline styles only).
 */
export function renderDevicePage(health: DeviceHealth): string {
  const rows = health.checks
    .map(
      (check) =>
        `<tr class="${check.status}"><td>${escapeHtml(check.name)}</td><td>${statusLabel[check.status] ?? escapeHtml(check.status)}</td></tr>`,
    )
    .join('');
  const score = health.score === null ? 'No decided checks yet' : `${health.score}%`;
  const reported =
    health.reportedAt === null
      ? 'This device has not reported a doctor check yet. Run the connect CLI’s doctor.'
      : `Last report ${escapeHtml(health.reportedAt)}${health.clientVersion ? `, client ${escapeHtml(health.clientVersion)}` : ''}.`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>gw device health</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:40rem;padding:0 1rem;color:#1b1f24}table{border-collapse:collapse;width:100%}td{border-bottom:1px solid #d0d7de;padding:.35rem .5rem}.fail td:last-child{color:#b42318;font-weight:600}.warn td:last-child{color:#9a6700}.pass td:last-child{color:#1a7f37}.muted{color:#57606a}</style>
</head><body>
<h1>Device health</h1>
<p class="muted">Seat ${escapeHtml(health.user)}${health.offboarded ? ' · offboarded' : ''}</p>
<p><strong>Compliance score:</strong> ${score}</p>
<p class="muted">${reported}</p>
${rows ? `<table><tbody>${rows}</tbody></table>` : ''}
</body></html>
`;
}
