import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pageCompanyId, type CompanyDetails } from '@frontdesk/protocol';
import { BRANDED_PAGE_SCRIPT, brandedStyle } from '../companies/branded-page.ts';

/** A CSP source for inline code: the base64 SHA-256 of exactly what the browser runs. */
export const cspHash = (code: string) =>
  `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`;

/**
 * What both single-page apps load. connect-src: the API and both WebSockets on our own origin
 * (CSP Level 3 lets 'self' match ws:/wss: of the same host; the explicit ws origin is for
 * browsers before it). Media from the camera and other peers arrive as MediaStreams
 * (`mediastream:`) and recordings or previews as `blob:`. Company logos, backgrounds and icons
 * are the company's own https URLs, hence `https:` for images only.
 */
function appDirectives(request: FastifyRequest): Record<string, string[]> {
  const wsOrigin = /^[a-z0-9.-]+(:\d+)?$|^\[[0-9a-f:.]+\](:\d+)?$/i.test(request.host)
    ? [`${request.protocol === 'https' ? 'wss' : 'ws'}://${request.host}`]
    : [];
  return {
    'default-src': ["'self'"],
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
    'form-action': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'media-src': ["'self'", 'blob:', 'mediastream:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...wsOrigin],
    'worker-src': ["'self'", 'blob:'],
  };
}

const serialize = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');

/**
 * The guest page's policy. Scripts: our files and the one inline mark the branded page writes,
 * by hash. The branded page's `style` attribute on `<html>` is allowed by its hash too
 * ('unsafe-hashes' allows hashed attributes, never arbitrary inline style); a browser without
 * 'unsafe-hashes' drops it and the app applies the same colours once its script runs.
 * SECURITY: frame-ancestors is the company's `allowedOrigins` besides our own origin, so only
 * the sites the company named can frame it (clickjacking of the call and camera prompts).
 */
export function guestPagePolicy(request: FastifyRequest, company: CompanyDetails | null): string {
  const directives = appDirectives(request);
  directives['script-src']?.push(cspHash(BRANDED_PAGE_SCRIPT));
  const style = company ? brandedStyle(company) : '';
  if (style) directives['style-src']?.push("'unsafe-hashes'", cspHash(style));
  directives['frame-ancestors'] = ["'self'", ...(company?.allowedOrigins ?? [])];
  return serialize(directives);
}

/** Sets the guest page's headers; framing by another origin only where the company allows it. */
export function setGuestPageHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  company: CompanyDetails | null,
): void {
  reply.header('content-security-policy', guestPagePolicy(request, company));
  // Browsers that know frame-ancestors ignore X-Frame-Options; it can only name one origin,
  // so it is sent only when no other site may frame the page.
  if (!company?.allowedOrigins.length) reply.header('x-frame-options', 'SAMEORIGIN');
}

/** The guest page's company as the page itself reads it (`?company=`), or null if unknown. */
export function guestPageCompany(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<CompanyDetails | null> {
  const { company: named } = request.query as Record<string, unknown>;
  return app.companyDetails.get(pageCompanyId(named), new Date()).catch(() => null);
}

/**
 * Browser hardening for every answer (issue 13 item 6): a Content-Security-Policy for each kind
 * of page, nosniff, the referrer policy, and HSTS over TLS. Answers that set their own policy
 * (the guest page, uploads) keep it.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    // Call and company ids travel in page addresses: other sites learn only our origin.
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    // `request.protocol` believes X-Forwarded-Proto only from the proxies TRUST_PROXY names;
    // HSTS over plain HTTP is ignored by browsers and would only mislead.
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', 'max-age=31536000');
    }
    if (reply.hasHeader('content-security-policy')) return payload;
    const path = request.url.split('?')[0] ?? '/';
    // By path, not content type: a 304 has none, and the browser puts the 304's policy on the
    // page it kept, so a JSON-style policy there would leave the console blank.
    const html = !/\.\w+$/.test(path) || path.endsWith('.html');
    if (path === '/preview.html') {
      // SECURITY: the admin's live preview shows whatever draft its framer sends: only our own
      // pages (the console) may frame it, never the sites a company allows for its guest page.
      reply.header(
        'content-security-policy',
        serialize({ ...appDirectives(request), 'frame-ancestors': ["'self'"] }),
      );
      reply.header('x-frame-options', 'SAMEORIGIN');
      return payload;
    }
    if (html && path.startsWith('/console')) {
      // SECURITY: the console is never framed by anyone (clickjacking of agents and admins).
      reply.header(
        'content-security-policy',
        serialize({ ...appDirectives(request), 'frame-ancestors': ["'none'"] }),
      );
    } else if (html && path.startsWith('/api/docs')) {
      // Swagger UI's own files; its React sets some inline styles, and the page holds no data
      // of anyone's, so inline style is allowed here (never inline script).
      reply.header(
        'content-security-policy',
        "default-src 'self'; base-uri 'none'; object-src 'none'; script-src 'self'; " +
          "style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
      );
    } else {
      // API answers, the embed loader and the apps' files are never documents of their own.
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    }
    reply.header('x-frame-options', 'DENY');
    return payload;
  });
}
