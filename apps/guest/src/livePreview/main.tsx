import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LivePreview } from './LivePreview.tsx';
import { previewServices } from './previewServices.ts';
import { loadLanguage } from '../i18n/messages.ts';
import '../app/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('preview.html lacks #root');
// A draft may switch language at any moment: the preview has every catalogue from the start.
await loadLanguage('ar');
createRoot(root).render(
  <StrictMode>
    <LivePreview services={previewServices().services} />
  </StrictMode>,
);
