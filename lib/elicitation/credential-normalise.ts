// Normalises text before the credential rules look at it, so that a secret cannot slip past by
// looking different to a regex while staying the same to a person (or to the service that accepts
// it once the characters are cleaned up): compatibility forms (fullwidth letters, ligatures) fold to
// ASCII with NFKC; invisible characters (zero-width space/joiners, bidi controls, soft hyphen:
// Unicode category Cf; variation selectors and fillers) are removed; and inside a word that mixes Latin with Cyrillic or
// Greek, look-alike letters become their Latin twins. Words written wholly in Cyrillic or Greek
// (Ukrainian, Russian, Greek text) are left as they are, so ordinary text is not rewritten.

// Cyrillic and Greek letters that are drawn like an ASCII letter or digit (Unicode's confusables
// data, restricted to the two scripts a token could be disguised with on a common keyboard).
const LOOKALIKE: Record<string, string> = {
  а: "a",
  в: "B",
  е: "e",
  к: "k",
  м: "M",
  н: "H",
  о: "o",
  р: "p",
  с: "c",
  т: "T",
  у: "y",
  х: "x",
  і: "i",
  ј: "j",
  ѕ: "s",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  ɡ: "g",
  ӏ: "l",
  А: "A",
  В: "B",
  Е: "E",
  К: "K",
  М: "M",
  Н: "H",
  О: "O",
  Р: "P",
  С: "C",
  Т: "T",
  У: "Y",
  Х: "X",
  І: "I",
  Ј: "J",
  Ѕ: "S",
  Ԛ: "Q",
  Ԝ: "W",
  Ӏ: "I",
  З: "3",
  Ь: "b",
  α: "a",
  ο: "o",
  ν: "v",
  ρ: "p",
  τ: "t",
  υ: "u",
  ι: "i",
  κ: "k",
  χ: "x",
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
};
const LATIN = /\p{Script=Latin}|[0-9]/u;
const CONFUSABLE_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;

function unconfuseWord(word: string): string {
  if (!LATIN.test(word) || !CONFUSABLE_SCRIPT.test(word)) return word;
  let out = "";
  for (const ch of word) out += LOOKALIKE[ch] ?? ch;
  return out;
}

// Drawn as nothing but not category Cf: variation selectors, the combining grapheme joiner and the
// Hangul fillers.
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u3164\uffa0\p{Variation_Selector}]/gu;

// Decimal digits of every script (Arabic-Indic, Devanagari, Bengali, Thai, ...) read as ASCII
// digits: NFKC folds only the compatibility forms (fullwidth, mathematical), but a card number
// typed in Eastern Arabic digits is the same card to a payment processor that accepts it. Each
// script's digits are ten consecutive code points from zero, so a digit's value is its distance
// from the start of its run of digit code points.
const DECIMAL_DIGIT = /\p{Nd}/u;
function asciiDigit(ch: string): string {
  const cp = ch.codePointAt(0)!;
  let k = 0;
  while (k < 10 && DECIMAL_DIGIT.test(String.fromCodePoint(cp - k - 1))) k++;
  return String(k % 10);
}

/** The text as the rules see it. Never logged or stored: it is the secret, if there is one. */
export function normaliseForScan(text: string): string {
  const folded = text
    .normalize("NFKC")
    .replace(INVISIBLE, "")
    .replace(/[^\p{ASCII}]/gu, (ch) => (DECIMAL_DIGIT.test(ch) ? asciiDigit(ch) : ch));
  return folded.replace(/[^\s]+/g, unconfuseWord);
}

/**
 * Brackets, typographic quotes and sentence punctuation around a value become spaces, so rules
 * anchored on gitleaks' token boundaries (quote, whitespace, ";" or the end) still see the token.
 * A second view of the text: the rules also run on the text as it is.
 */
export function unwrapDelimiters(text: string): string {
  return text.replace(/[()[\]{}<>«»“”„‘’‚‹›|]/g, " ").replace(/[.,!?:;]+(?=\s|$)/g, " ");
}
