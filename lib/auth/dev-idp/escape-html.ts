// Escapes text for HTML element content and double- or single-quoted attribute values.
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

// Text a client declared about itself (its name, its redirect URIs) shown where a person decides:
// escaping stops markup, but a right-to-left override (U+202E) or an invisible character would
// still reorder or hide what the person reads ("moc.elgoog" drawn as "google.com"). Such
// characters are shown as visible code points, and the whole is isolated with <bdi> so it cannot
// reorder the sentence around it.
export function untrustedText(s: string): string {
  const visible = s.replace(/[\p{Cc}\p{Cf}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`);
  return `<bdi>${escapeHtml(visible)}</bdi>`;
}
