import type { GuestClient } from '@frontdesk/protocol';

/** Browsers by their User-Agent token, most specific first (Edge and Opera also say Chrome). */
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdgA?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\bFirefox\/(\d+)/, 'Firefox'],
  [/\bFxiOS\/(\d+)/, 'Firefox'],
  [/\bCriOS\/(\d+)/, 'Chrome'],
  [/\bChrome\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\bAndroid (\d+)/, 'Android'],
  [/\b(?:iPhone|iPad|iPod).* OS (\d+)/, 'iOS'],
  [/\bWindows NT/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

function firstMatch(userAgent: string, table: readonly [RegExp, string][]): string | null {
  for (const [pattern, name] of table) {
    const match = pattern.exec(userAgent);
    if (match) return match[1] ? `${name} ${match[1]}` : name;
  }
  return null;
}

/**
 * The browser, system and kind of device a User-Agent names, in the words an agent uses
 * ("Chrome 131", "Android 14", phone); what it does not recognise is `null`. A desktop
 * Safari on an iPad says "Macintosh": that iPad counts as a desktop, as the site sees it.
 */
export function describeUserAgent(userAgent: string): GuestClient {
  const tablet = /\biPad\b|\bTablet\b|Android(?!.*\bMobile\b)/.test(userAgent);
  const phone = !tablet && /\bMobile\b|\biPhone\b|\biPod\b/.test(userAgent);
  return {
    browser: firstMatch(userAgent, BROWSERS),
    os: firstMatch(userAgent, SYSTEMS),
    device: tablet ? 'tablet' : phone ? 'phone' : 'desktop',
  };
}
