// Form requests must carry no clickable link: clients render messages and titles, some as
// Markdown, and a link inside a form is a phishing vector. Schemes, "www." hosts and Markdown
// link syntax all count; plain words with dots (file names like report.pdf) do not.
const URLISH = /(?<![\p{L}\p{N}])(?:(?:https?|ftp|ftps|file|javascript|data|vbscript|mailto|tel|sms|ssh|git|ws|wss):|www\.[\p{L}\p{N}-]+\.)|\]\([^)]*\)|<[a-z][a-z0-9+.-]*:[^>]*>/iu;

export function containsUrl(text: string): boolean {
  return URLISH.test(text);
}
