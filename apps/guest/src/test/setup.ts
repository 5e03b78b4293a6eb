import { loadLanguage } from '../i18n/messages.ts';

// Components render synchronously in the tests: every catalogue is there before the first.
await loadLanguage('ar');
