// The text rules of docs/history-json.md and docs/fingerprints.md: canonical JSON (for the
// compatibility hash) and the document's own layout (sorted keys, compact, newline-ended).
// Kept apart from the fixture scenarios so that both rules can be read in one place.
import { createHash } from "node:crypto";

function compareUtf8(a, b) {
  // Keys sort by their UTF-8 bytes, which differs from JavaScript's UTF-16 order for
  // characters beyond the Basic Multilingual Plane.
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

function sortedKeys(object) {
  return Object.keys(object).sort(compareUtf8);
}

function withTwoDigitExponent(text) {
  return text.replace(/e([+-])(\d)$/, "e$10$2");
}

// The shortest text that reads back as the same double, fixed or exponent notation,
// whichever is shorter (fixed on a tie), exponents signed with at least two digits.
function canonicalNumber(value) {
  if (!Number.isFinite(value)) throw new Error(`not canonical: ${value}`);
  if (Number.isInteger(value) && Math.abs(value) < 2 ** 53) return String(value === 0 ? 0 : value);
  const exponentText = withTwoDigitExponent(value.toExponential());
  const [mantissa, exponentPart] = value.toExponential().split("e");
  const exponent = Number(exponentPart);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  let fixed;
  if (exponent >= digits.length - 1) {
    fixed = digits + "0".repeat(exponent - digits.length + 1);
  } else if (exponent >= 0) {
    fixed = digits.slice(0, exponent + 1) + "." + digits.slice(exponent + 1);
  } else {
    fixed = "0." + "0".repeat(-exponent - 1) + digits;
  }
  fixed = (negative ? "-" : "") + fixed;
  return fixed.length <= exponentText.length ? fixed : exponentText;
}

export function canonicalJson(value) {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") return canonicalNumber(value);
  // JSON.stringify escapes exactly `"`, `\` and U+0000-U+001F, with lowercase hex.
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return "[" + value.map(canonicalJson).join(",") + "]";
  return (
    "{" +
    sortedKeys(value)
      .map((key) => JSON.stringify(key) + ":" + canonicalJson(value[key]))
      .join(",") +
    "}"
  );
}

export function sha256Hex(text) {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

// The document layout: keys sorted, no insignificant whitespace, numbers in their shortest
// round-trip form (JSON.stringify already writes 20, not 20.0). Built from parts so that a
// 60 MB document does not go through one giant recursive string concatenation.
export function documentText(document) {
  const parts = [];
  const write = (value) => {
    if (value === null || typeof value !== "object") {
      parts.push(JSON.stringify(value));
    } else if (Array.isArray(value)) {
      if (value.every((item) => typeof item === "number")) {
        parts.push("[" + value.join(",") + "]");
        return;
      }
      parts.push("[");
      value.forEach((item, i) => {
        if (i > 0) parts.push(",");
        write(item);
      });
      parts.push("]");
    } else {
      parts.push("{");
      sortedKeys(value).forEach((key, i) => {
        parts.push((i > 0 ? "," : "") + JSON.stringify(key) + ":");
        write(value[key]);
      });
      parts.push("}");
    }
  };
  write(document);
  return parts.join("") + "\n";
}
