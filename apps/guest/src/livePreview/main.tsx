import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LivePreview } from './LivePreview.tsx';
import { previewServices } from './previewServices.ts';
import '../app/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('preview.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <LivePreview services={previewServices().services} />
  </StrictMode>,
);
