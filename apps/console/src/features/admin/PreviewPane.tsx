import { useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  previewMessageSchema,
  previewStageSchema,
  type CompanyDetails,
  type PreviewRequest,
  type PreviewScreen,
  type PreviewStage,
} from '@frontdesk/protocol';
import { t, type MessageKey } from '../../i18n/messages.ts';

/**
 * How long the draft rests before it goes to the preview: a burst of keystrokes sends one
 * message, and the preview still follows within well under 300 ms of the last (issue 16).
 */
export const PREVIEW_DEBOUNCE_MS = 80;

/** The guest app's preview page (apps/guest/preview.html), framed on the console's own origin. */
const PREVIEW_PAGE = '/preview.html';

/** What the preview can show: a stage, or a screen within one (the hold page, the thanks). */
export type PreviewView = { stage: PreviewStage; screen?: PreviewScreen };

const FLOW: readonly PreviewView[] = [
  { stage: 'consent' },
  { stage: 'consentDeclined' },
  { stage: 'welcome' },
  { stage: 'preview' },
  { stage: 'selection' },
  { stage: 'waiting' },
  { stage: 'ongoing' },
  { stage: 'ongoing', screen: 'hold' },
  { stage: 'rating' },
  { stage: 'rating', screen: 'thanks' },
  { stage: 'abandoned' },
];
/** The pages a guest sees instead of a call: every other stage. */
const REFUSALS: readonly PreviewView[] = previewStageSchema.options
  .filter((stage) => !FLOW.some((view) => view.stage === stage))
  .map((stage) => ({ stage }));

const viewKey = (view: PreviewView) => (view.screen ? `${view.stage}:${view.screen}` : view.stage);
const viewLabel = (view: PreviewView) =>
  view.screen ? t(`screen_${view.screen}`) : t(`stage_${view.stage}`);
const ALL_VIEWS = new Map([...FLOW, ...REFUSALS].map((view) => [viewKey(view), view]));

/** The two sizes the preview takes: a phone (390×844) and a laptop's window. */
const DEVICES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
type Device = keyof typeof DEVICES;
/** Where admin.css stacks the form and the preview. */
const NARROW_SCREEN = '(max-width: 60rem)';

/** Room below the frame's top, so the whole device shows without scrolling the page. */
const BOTTOM_MARGIN_PX = 24;
const MIN_HEIGHT_PX = 320;

/**
 * The room the frame has: the pane's width, and the window's height below the frame's top,
 * measured again as either changes.
 */
function useBoxSize() {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const rect = box.getBoundingClientRect();
      const height = Math.max(MIN_HEIGHT_PX, window.innerHeight - rect.top - BOTTOM_MARGIN_PX);
      setSize({ width: rect.width, height });
    };
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, []);
  return { ref, size };
}

type ToggleOption<T extends string> = { value: T; label: MessageKey };

/** A row of buttons of which one is pressed (device, direction). */
function Toggle<T extends string>(props: {
  label: MessageKey;
  options: readonly ToggleOption<T>[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div role="group" aria-label={t(props.label)} className="toggle">
      {props.options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={props.value === option.value}
          onClick={() => props.onChange(option.value)}
        >
          {t(option.label)}
        </button>
      ))}
    </div>
  );
}

/**
 * The live preview beside the settings form: the guest app's real pages in a frame, fed the
 * draft company (unsaved) at the chosen stage, on a phone or a desktop, in either direction.
 * SECURITY: messages go to, and are taken from, the console's own origin only
 * (docs/architecture.md: no postMessage to '*').
 */
export function PreviewPane({ company, stage }: { company: CompanyDetails; stage: PreviewStage }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const pickerId = useId();
  const [picked, setPicked] = useState<{ for: PreviewStage; view: PreviewView } | null>(null);
  // A phone's admin sees the phone first: the size the screen itself has.
  const [device, setDevice] = useState<Device>(() =>
    window.matchMedia?.(NARROW_SCREEN).matches ? 'phone' : 'desktop',
  );
  // The direction pressed here previews the other one without changing the setting; changing
  // the setting itself wins again.
  const [direction, setDirection] = useState<{ for: string; dir: 'ltr' | 'rtl' } | null>(null);
  const [connected, setConnected] = useState(false);
  const { ref: box, size } = useBoxSize();

  // Opening another group of settings turns the preview to that group's stage.
  const view = picked && picked.for === stage ? picked.view : { stage };
  const pageDirection =
    direction && direction.for === company.pageDirection ? direction.dir : company.pageDirection;

  const request = useMemo<PreviewRequest>(
    () => ({
      type: 'frontdesk:preview',
      company: { ...company, pageDirection },
      stage: view.stage,
      ...(view.screen ? { screen: view.screen } : {}),
    }),
    [company, pageDirection, view.stage, view.screen],
  );

  // The preview says when it listens; from then on it gets each draft once the typing rests.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const message = previewMessageSchema.safeParse(event.data);
      if (message.success && message.data.type === 'frontdesk:preview-ready') setConnected(true);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  useEffect(() => {
    if (!connected) return;
    const timer = setTimeout(
      () => frame.current?.contentWindow?.postMessage(request, window.location.origin),
      PREVIEW_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [connected, request]);

  const { width, height } = DEVICES[device];
  // The device's outline (admin.css) takes up to 6px a side.
  const scale = size ? Math.min(1, (size.width - 12) / width, (size.height - 12) / height) : 1;

  return (
    <section className="preview-pane" aria-labelledby={`${pickerId}-title`}>
      <details open className="preview-details">
        <summary id={`${pickerId}-title`}>{t('previewTitle')}</summary>
        <div className="preview-toolbar">
          <div className="field">
            <label htmlFor={pickerId}>{t('previewStage')}</label>
            <select
              id={pickerId}
              value={viewKey(view)}
              onChange={(event) => {
                const next = ALL_VIEWS.get(event.target.value);
                if (next) setPicked({ for: stage, view: next });
              }}
            >
              {[FLOW, REFUSALS].map((views, index) => (
                <optgroup key={index} label={t(index === 0 ? 'previewFlow' : 'previewRefusals')}>
                  {views.map((option) => (
                    <option key={viewKey(option)} value={viewKey(option)}>
                      {viewLabel(option)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </div>
          <Toggle
            label="previewDevice"
            value={device}
            onChange={setDevice}
            options={[
              { value: 'phone', label: 'devicePhone' },
              { value: 'desktop', label: 'deviceDesktop' },
            ]}
          />
          <Toggle
            label="previewDirection"
            value={pageDirection}
            onChange={(dir) => setDirection({ for: company.pageDirection, dir })}
            options={[
              { value: 'ltr', label: 'directionLtr' },
              { value: 'rtl', label: 'directionRtl' },
            ]}
          />
        </div>
        <p className="preview-note" role="status">
          {connected ? t('previewUnsaved') : t('previewConnecting')}
        </p>
        <div className="preview-box" ref={box} data-device={device}>
          <div className="preview-device" style={{ width: width * scale, height: height * scale }}>
            <iframe
              ref={frame}
              src={PREVIEW_PAGE}
              title={t('previewFrame')}
              data-testid="preview-frame"
              data-stage={viewKey(view)}
              data-connected={connected}
              width={width}
              height={height}
              style={{ transform: `scale(${scale})` }}
            />
          </div>
        </div>
      </details>
    </section>
  );
}
