// Form requests must carry no clickable link: clients render messages and titles, some as
// Markdown, and a link inside a form is a phishing vector. Schemes, "www." hosts and Markdown
// link syntax all count; plain words with dots (file names like report.pdf) do not.
const URLISH =
  /(?<![\p{L}\p{N}])(?:(?:https?|ftp|ftps|file|javascript|data|vbscript|mailto|tel|sms|ssh|git|ws|wss):|www\.[\p{L}\p{N}-]+\.)|\]\([^)]*\)|<[a-z][a-z0-9+.-]*:[^>]*>/iu;
// A host without a scheme that many clients still turn into a link (red team F2: "sign in at
// accounts.google.com.phish.test/signin"): a dotted name ending in a letter label followed by a
// path, or any punycode label (a look-alike host spelled for the wire).
const BARE_HOST = /(?<![\p{L}\p{N}.@-])(?:[\p{L}\p{N}-]+\.)+\p{L}{2,}\/|(?<![\p{L}\p{N}])xn--[a-z0-9-]+/iu;

export function containsUrl(text: string): boolean {
  return URLISH.test(text) || BARE_HOST.test(text);
}
