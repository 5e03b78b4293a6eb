import WebSocket from 'ws';

const FRAMING = 'urn:ietf:params:xml:ns:xmpp-framing';
const SM = 'urn:xmpp:sm:3';
/** What StanzaJS sends after each stanza of the apps, and as their keep-alive. */
const ACK_REQUEST = `<r xmlns='${SM}'/>`;

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
 *
 * It speaks stream management (XEP-0198) as the apps' StanzaJS does, since that is traffic the
 * server carries for every session: it enables it (without resumption), asks for an ack after
 * each stanza it sends, and answers the server's ack requests, which ejabberd sends after the
 * stanzas it delivers.
 */
export class XmppSession {
  private readonly waiters = new Set<Waiter>();
  /** Called for every stanza nobody waited for. */
  onStanza: (stanza: string) => void = () => undefined;
  closedUnexpectedly = false;
  private closing = false;
  /** Stanzas received since stream management was enabled (XEP-0198's `h`). */
  private handled = 0;
  private counting = false;
  /** When the oldest ack request still unanswered was sent (the keep-alive's question). */
  ackAskedAt: number | undefined;
  /** When the pending room self-ping was sent, and its id. */
  roomCheck: { id: string; sentAt: number } | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const stanza = data.toString();
      if (stanza.startsWith('<r ') || stanza.startsWith('<r>')) {
        this.socket.send(`<a xmlns='${SM}' h='${this.handled}'/>`);
        return;
      }
      if (stanza.startsWith('<a ')) {
        this.ackAskedAt = undefined;
        return;
      }
      if (
        this.counting &&
        (stanza.startsWith('<message') ||
          stanza.startsWith('<presence') ||
          stanza.startsWith('<iq'))
      ) {
        this.handled += 1;
      }
      if (
        this.roomCheck &&
        stanza.startsWith('<iq') &&
        attribute(stanza, 'id') === this.roomCheck.id
      ) {
        this.roomCheck = undefined;
        return;
      }
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
    const features = () => session.next((s) => s.includes('<stream:features'), 'stream features');
    session.send(open);
    await features();
    const credentials = Buffer.from(`\0${localpart}\0${token}`).toString('base64');
    session.send(
      `<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>${credentials}</auth>`,
    );
    const outcome = await session.next(
      (s) => s.startsWith('<success') || s.startsWith('<failure'),
      'SASL outcome',
    );
    if (outcome.startsWith('<failure')) throw new Error(`SASL refused: ${outcome}`);
    session.send(open);
    await features();
    await session.iq(
      `<bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>bench</resource></bind>`,
    );
    const enabled = session.next(
      (s) => s.startsWith('<enabled') || s.startsWith('<failed'),
      'stream management',
    );
    session.socket.send(`<enable xmlns='${SM}'/>`);
    if (!(await enabled).startsWith('<enabled')) throw new Error('stream management refused');
    session.counting = true;
    return session;
  }

  /** Sends a stanza, then an ack request for it, as StanzaJS does with stream management on. */
  send(stanza: string): void {
    this.socket.send(stanza);
    if (this.counting) this.socket.send(ACK_REQUEST);
  }

  /** The apps' keep-alive (packages/chat, every 4 s): an ack request the server must answer. */
  askAck(now: number): void {
    this.ackAskedAt ??= now;
    this.socket.send(ACK_REQUEST);
  }

  private roomChecks = 0;

  /** The apps' room check (every 5 s): the session pings itself in its room (XEP-0410). */
  checkRoom(occupantJid: string, now: number): void {
    const id = `rc${(this.roomChecks += 1)}`;
    this.roomCheck = { id, sentAt: now };
    this.send(`<iq type='get' id='${id}' to='${occupantJid}'><ping xmlns='urn:xmpp:ping'/></iq>`);
  }

  /** The next stanza that `match` accepts, or an error after `timeoutMs`. */
  next(match: (stanza: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`XMPP: no ${what} in time`));
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

  async iq(payload: string, type: 'get' | 'set' = 'set', to?: string): Promise<string> {
    const id = `iq${(this.iqCount += 1)}`;
    const answer = this.next((s) => s.startsWith('<iq') && attribute(s, 'id') === id, 'IQ answer');
    this.send(`<iq type='${type}' id='${id}'${to ? ` to='${to}'` : ''}>${payload}</iq>`);
    const stanza = await answer;
    if (attribute(stanza, 'type') !== 'result') throw new Error(`XMPP iq failed: ${stanza}`);
    return stanza;
  }

  /**
   * The apps' session start before they join their rooms (packages/chat connection.ts): initial
   * presence, then the STUN services (XEP-0215) and carbons asked side by side. Their PEP state
   * nodes are left out.
   */
  async startSession(domain: string): Promise<void> {
    this.send('<presence/>');
    await Promise.all([
      this.iq(`<services xmlns='urn:xmpp:extdisco:2'/>`, 'get', domain),
      this.iq(`<enable xmlns='urn:xmpp:carbons:2'/>`),
    ]);
  }

  /** Joins a MUC room with a status (call state travels in MUC presence, as in the apps). */
  async join(occupantJid: string, status: string): Promise<void> {
    const joined = this.next(
      (s) => s.startsWith('<presence') && attribute(s, 'from') === occupantJid,
      'MUC self-presence',
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
