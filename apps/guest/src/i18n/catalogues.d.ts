/** A message catalogue as the build compiles it (build/message-catalogues.ts). */
declare module 'virtual:guest-messages/*' {
  import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
  const catalogue: Record<string, string | MessageFormatElement[]>;
  export default catalogue;
}
