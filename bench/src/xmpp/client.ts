import WebSocket from 'ws';

const FRAMING = 'urn:ietf:params:xml:ns:xmpp-framing';

/** The value of attribute `name` of a stanza's top element (either quote style). */
export function attribute(stanza: string, name: string): string | undefined {
  const head = stanza.slice(0, stanza.indexOf('>') + 1);
  return new RegExp(`\\s${name}=(['"])(.*?)\\1`).exec(head)?.[2];
}

const escape = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

type Waiter = { match: (stanza: string) => boolean; resolve: (stanza: string) => void };

/**
 * A deliberately small XMPP-over-WebSocket client (RFC 7395) for load: SASL PLAIN with the JWT
 * as password, resource binding, MUC join, presence and groupchat. One WebSocket message is one
 * stanza, so matching on the top element's attributes is enough; a full client (StanzaJS)
 * would cost more per session than the server does.
 */
export class XmppSession {
  private readonly waiters = new Set<Waiter>();
  /** Called for every stanza nobody waited for. */
  onStanza: (stanza: string) => void = () => undefined;
  closedUnexpectedly = false;
  private closing = false;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const stanza = data.toString();
      for (const waiter of this.waiters) {
        if (waiter.match(stanza)) {
          this.waiters.delete(waiter);
          waiter.resolve(stanza);
          return;
        }
      }
      this.onStanza(stanza);
    });
    socket.on('close', () => {
      if (!this.closing) this.closedUnexpectedly = true;
    });
  }

  /** Opens a session as `localpart@domain` with `token`, bound to a resource. */
  static async open(url: string, domain: string, localpart: string, token: string) {
    const socket = new WebSocket(url, 'xmpp');
    await new Promise<void>((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const session = new XmppSession(socket);
    const open = `<open xmlns='${FRAMING}' to='${domain}' version='1.0'/>`;
    const features = () => session.next((s) => s.includes('<stream:features'));
    session.send(open);
    await features();
    const credentials = Buffer.from(`\0${localpart}\0${token}`).toString('base64');
    session.send(
      `<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>${credentials}</auth>`,
    );
    const outcome = await session.next((s) => s.startsWith('<success') || s.startsWith('<failure'));
    if (outcome.startsWith('<failure')) throw new Error(`SASL refused: ${outcome}`);
    session.send(open);
    await features();
    await session.iq(
      `<bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>bench</resource></bind>`,
    );
    return session;
  }

  send(stanza: string): void {
    this.socket.send(stanza);
  }

  /** The next stanza that `match` accepts, or an error after `timeoutMs`. */
  next(match: (stanza: string) => boolean, timeoutMs = 15_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error('XMPP: no answer in time'));
      }, timeoutMs);
      const waiter: Waiter = {
        match,
        resolve: (stanza) => {
          clearTimeout(timer);
          resolve(stanza);
        },
      };
      this.waiters.add(waiter);
    });
  }

  private iqCount = 0;

  async iq(payload: string): Promise<string> {
    const id = `iq${(this.iqCount += 1)}`;
    const answer = this.next((s) => s.startsWith('<iq') && attribute(s, 'id') === id);
    this.send(`<iq type='set' id='${id}'>${payload}</iq>`);
    const stanza = await answer;
    if (attribute(stanza, 'type') !== 'result') throw new Error(`XMPP iq failed: ${stanza}`);
    return stanza;
  }

  /** Joins a MUC room with a status (call state travels in MUC presence, as in the apps). */
  async join(occupantJid: string, status: string): Promise<void> {
    const joined = this.next(
      (s) => s.startsWith('<presence') && attribute(s, 'from') === occupantJid,
    );
    this.send(
      `<presence to='${occupantJid}'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x><status>${escape(status)}</status></presence>`,
    );
    const stanza = await joined;
    if (attribute(stanza, 'type') === 'error') throw new Error(`MUC join refused: ${stanza}`);
  }

  setStatus(occupantJid: string, status: string): void {
    this.send(`<presence to='${occupantJid}'><status>${escape(status)}</status></presence>`);
  }

  close(): void {
    this.closing = true;
    this.socket.close();
  }
}
