// A demo host page for the embed (docs/embed.md): a "shop" on another origin than Frontdesk,
// with the snippet, identify (plain and signed) and the commands.
//   node scripts/embed-demo.mjs [frontdesk-url] [company-id]
// It listens on http://127.0.0.1:4180, the origin the seed lists in the allowedOrigins of the
// round-the-clock company (12). Give EMBED_SECRET (the company's embed secret, shown to its
// admins at GET /api/company/12/embed-secret) to try the signed, verified identity.
// Plain JavaScript with no dependencies, like the other scripts here.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const frontdesk = (process.argv[2] ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const company = Number(process.argv[3] ?? 12);
const template = readFileSync(new URL('../docs/embed/demo-shop.html', import.meta.url), 'utf8');
const secret = process.env.EMBED_SECRET;

/** What the shop's server does for its signed-in user: signs the answers with the secret. */
function identityToken() {
  const exp = Math.floor(Date.now() / 1000) + 600;
  const answers = { name: 'Ada Lovelace', email: 'ada@example.org' };
  const body = Buffer.from(JSON.stringify({ company, answers, exp })).toString('base64url');
  return `${body}.${createHmac('sha256', secret).update(body).digest('hex')}`;
}

createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/identity') {
    if (!secret) return response.writeHead(404).end();
    return response.writeHead(200, { 'content-type': 'text/plain' }).end(identityToken());
  }
  const locale = /^[a-z]{2,3}$/.test(url.searchParams.get('lang') ?? '')
    ? url.searchParams.get('lang')
    : '';
  const page = template
    .replaceAll('__FRONTDESK_URL__', frontdesk)
    .replaceAll('__COMPANY__', String(company))
    .replaceAll('__LOCALE__', locale ?? '');
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
}).listen(4180, '127.0.0.1', () => {
  console.log(
    `Demo shop at http://127.0.0.1:4180/ (Frontdesk at ${frontdesk}, company ${company})`,
  );
});
