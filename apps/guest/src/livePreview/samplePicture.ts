/**
 * A still video of a person's outline on a plain background, painted on a canvas: what the
 * preview's video tiles show instead of a camera, so the call looks like a call without asking
 * for one. Null where the browser cannot make a stream of a canvas (the tests' jsdom).
 */
export function samplePicture(colours: { background: string; person: string }): MediaStream | null {
  const canvas = document.createElement('canvas');
  const context = typeof canvas.captureStream === 'function' ? canvas.getContext('2d') : null;
  if (!context) return null;
  const width = (canvas.width = 640);
  const height = (canvas.height = 480);
  context.fillStyle = colours.background;
  context.fillRect(0, 0, width, height);
  context.fillStyle = colours.person;
  context.beginPath();
  // Centred and small enough to stay whole when a tile crops the picture to its own shape.
  context.arc(width / 2, height * 0.42, height * 0.11, 0, 2 * Math.PI);
  context.fill();
  context.beginPath();
  context.ellipse(width / 2, height * 0.98, height * 0.3, height * 0.36, 0, 0, 2 * Math.PI);
  context.fill();
  // No frame rate: one frame, taken now, is all a still picture needs.
  const stream = canvas.captureStream(0);
  for (const track of stream.getVideoTracks()) {
    if ('requestFrame' in track) (track as CanvasCaptureMediaStreamTrack).requestFrame();
  }
  return stream;
}
