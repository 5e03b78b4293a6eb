import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DoctorReport } from '@frontdesk/protocol';
import { adaLogin, answer, fakeApi, renderWithState, signedIn } from '../../test/render.tsx';
import { DoctorPanel } from './DoctorPanel.tsx';
import { useDoctor } from './useDoctor.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TURN_URLS = [
  'turn:calls.example.com:3478?transport=udp',
  'turn:calls.example.com:3478?transport=tcp',
  'turns:calls.example.com:5349?transport=tcp',
];

/** What the API answers an admin, with one problem of each kind. */
const report = (checkedAt = new Date().toISOString()): DoctorReport => ({
  checkedAt,
  checks: [
    {
      id: 'public-url.certificate',
      title: 'HTTPS certificate',
      status: 'warn',
      detail: 'the certificate of calls.example.com expires in 5 days',
      fix: 'Caddy renews 30 days ahead, so renewal is failing.',
    },
    { id: 'turn.configured', title: 'TURN relay configured', status: 'ok', detail: 'yes' },
    {
      id: 'data-dir.disk',
      title: 'Disk space of the data folder',
      status: 'fail',
      detail: '0.5 GB free',
      fix: 'Free space on that disk.',
    },
  ],
  iceServers: [{ urls: TURN_URLS, username: '1:doctor-3-agent', credential: 'c' }],
  notChecked: ['Listening ports: run npm run doctor on the server.'],
});

type Listener = (event: unknown) => void;

/**
 * Stands for the browser's RTCPeerConnection: over UDP and TLS it gathers a relay candidate;
 * over TCP the TURN server cannot be reached (error 701) and gathering ends without one.
 */
class FakePeerConnection {
  static made: RTCConfiguration[] = [];
  private readonly listeners = new Map<string, Listener[]>();
  closed = false;
  constructor(private readonly config: RTCConfiguration) {
    FakePeerConnection.made.push(config);
  }
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  private emit(type: string, event: unknown) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  createDataChannel() {
    return {};
  }
  async createOffer() {
    return { type: 'offer', sdp: '' };
  }
  async setLocalDescription() {
    const url = String(this.config.iceServers?.[0]?.urls);
    setTimeout(() => {
      if (url.includes('transport=tcp') && url.startsWith('turn:')) {
        this.emit('icecandidateerror', { errorCode: 701, errorText: 'TURN server unreachable' });
        this.emit('icecandidate', { candidate: null });
      } else {
        this.emit('icecandidate', {
          candidate: { type: 'relay', address: '203.0.113.5', port: 50001 },
        });
      }
    }, 0);
  }
  close() {
    this.closed = true;
  }
}

function Harness() {
  const doctor = useDoctor();
  return <DoctorPanel view={doctor.view} onRun={doctor.run} />;
}

const admin = () => {
  const state = signedIn();
  return {
    auth: {
      ...state.auth,
      login: { ...adaLogin, user: { ...adaLogin.user, role: 'admin' as const } },
    },
  };
};

describe('the self-test view', () => {
  it('shows each check with OK/WARN/FAIL, the fix of each problem, and the relay per transport', async () => {
    FakePeerConnection.made = [];
    vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
    const { api, requests } = fakeApi({ 'GET /admin/doctor': answer(report()) });
    renderWithState(<Harness />, admin(), { api });

    fireEvent.click(screen.getByRole('button', { name: 'Run the self-test' }));
    expect(await screen.findByText('Checking… (up to 15 seconds)')).toBeTruthy();

    const certificate = await screen.findByTestId('doctor-public-url.certificate');
    expect(certificate.dataset.status).toBe('warn');
    expect(within(certificate).getByText('WARN')).toBeTruthy();
    expect(
      within(certificate).getByText('Fix: Caddy renews 30 days ahead, so renewal is failing.'),
    ).toBeTruthy();
    expect(screen.getByTestId('doctor-data-dir.disk').dataset.status).toBe('fail');
    expect(within(screen.getByTestId('doctor-turn.configured')).queryByText(/^Fix:/)).toBeNull();

    const udp = await screen.findByTestId('doctor-browser.relay.udp');
    expect(udp.dataset.status).toBe('ok');
    expect(within(udp).getByText('relay 203.0.113.5:50001 allocated')).toBeTruthy();
    const tcp = screen.getByTestId('doctor-browser.relay.tcp');
    expect(tcp.dataset.status).toBe('fail');
    expect(within(tcp).getByText('failed: 701 TURN server unreachable')).toBeTruthy();
    expect(within(tcp).getByText(/^Fix: .*TCP 3478/)).toBeTruthy();
    expect(screen.getByTestId('doctor-browser.relay.tls').dataset.status).toBe('ok');
    expect(screen.getByTestId('doctor-browser.clock').dataset.status).toBe('ok');
    expect(screen.getByText('Listening ports: run npm run doctor on the server.')).toBeTruthy();

    // One peer connection per TURN URL, relay candidates only, with the minted credentials.
    expect(FakePeerConnection.made).toEqual(
      TURN_URLS.map((urls) => ({
        iceServers: [{ urls, username: '1:doctor-3-agent', credential: 'c' }],
        iceTransportPolicy: 'relay',
      })),
    );
    expect(requests).toEqual([{ route: 'GET /admin/doctor', body: undefined }]);
  });

  it('warns when this browser’s clock is minutes away from the server’s', async () => {
    vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
    const serverTime = new Date(Date.now() - 120_000).toISOString();
    const { api } = fakeApi({ 'GET /admin/doctor': answer(report(serverTime)) });
    renderWithState(<Harness />, admin(), { api });
    fireEvent.click(screen.getByRole('button', { name: 'Run the self-test' }));
    const clock = await screen.findByTestId('doctor-browser.clock');
    expect(clock.dataset.status).toBe('warn');
    expect(within(clock).getByText(/^12\d s ahead of the server’s$/)).toBeTruthy();
  });
});
