// A labelled SVG image built from trusted markup (the figures' art): role img, its label
// said by assistive technology and shown as a title.

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svgImage(label, attrs, inner) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  for (const [k, v] of Object.entries(attrs)) svg.setAttribute(k, v);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = label;
  svg.appendChild(title);
  svg.insertAdjacentHTML('beforeend', inner);
  return svg;
}
