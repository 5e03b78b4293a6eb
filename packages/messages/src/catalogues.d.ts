/** The app's catalogue in one language, as the build compiles it (build/message-catalogues.ts). */
declare module 'virtual:messages/*' {
  import type { Catalogue } from '@frontdesk/messages';
  const catalogue: Catalogue;
  export default catalogue;
}
